import { expect } from 'chai';
import { readStoredLayout } from '../../shared/layout/stored-layout.js';

const visible = { mobile: true, tablet: true, desktop: true };
const block = (id: string, type: string) => ({ id, type, visibility: visible, config: {} });

describe('reading stored layouts', () => {
  it('keeps a valid document as it is', () => {
    const doc = {
      schema: 2,
      page: { width: 'normal', density: 'compact', background: null },
      sections: [
        { id: 's', kind: 'flow', background: null, columns: [{ span: 12, blocks: [block('me', 'identity')] }] },
      ],
    };
    expect(readStoredLayout(doc)).to.deep.equal({ document: doc, incomplete: false, unreadable: false });
  });

  it('removes exactly the unreadable blocks, whatever their indexes (9 and 10 here)', () => {
    const blocks = [
      block('me', 'identity'),
      ...Array.from({ length: 8 }, (_, i) => block(`s${i}`, 'spacer')),
      block('x9', 'future-a'),
      block('x10', 'future-b'),
      block('last', 'divider'),
    ];
    const doc = {
      schema: 2,
      page: { width: 'normal', density: 'compact', background: null },
      sections: [{ id: 's', kind: 'flow', background: null, columns: [{ span: 12, blocks }] }],
    };
    const read = readStoredLayout(doc);
    expect(read.incomplete).to.equal(true);
    expect(read.unreadable).to.equal(false);
    const ids = (read.document as any).sections[0].columns[0].blocks.map((b: { id: string }) => b.id);
    expect(ids).to.deep.equal(['me', 's0', 's1', 's2', 's3', 's4', 's5', 's6', 's7', 'last']);
  });

  it('falls back to the default when the document cannot be read at all', () => {
    for (const garbage of [null, 'text', 42, { schema: 9 }, { schema: 2, sections: 'no' }]) {
      const read = readStoredLayout(garbage);
      expect(read, JSON.stringify(garbage)).to.include({ incomplete: true, unreadable: true });
      expect((read.document as any).sections[0].columns[0].blocks[0].type).to.equal('identity');
    }
  });
});
