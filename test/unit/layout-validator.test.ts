// The layout validator, rule by rule: the smallest change that breaks each rule, and the code it answers.
import { expect } from 'chai';
import fc from 'fast-check';
import { defaultLayout } from '../../shared/layout/default-layout.js';
import { validateLayout } from '../../shared/layout/layout-validator.js';
import { everyTypeLayout, maximalLayout } from '../helpers/layouts.js';

type Doc = any;
const visible = { mobile: true, tablet: true, desktop: true };
const block = (id: string, type: string, config: object = {}) => ({ id, type, visibility: visible, config });

function issuesOf(doc: unknown) {
  const result = validateLayout(doc);
  if (result.ok) return [];
  return result.issues;
}

function expectOnly(doc: unknown, code: string, extra: { path?: Array<string | number>; type?: string } = {}) {
  const issues = issuesOf(doc);
  expect(
    issues.map((issue) => issue.code),
    JSON.stringify(issues),
  ).to.include(code);
  const issue = issues.find((candidate) => candidate.code === code)!;
  expect(issue.message).to.be.a('string').and.not.empty;
  if (extra.path) expect(issue.path).to.deep.equal(extra.path);
  if (extra.type) expect(issue.type).to.equal(extra.type);
}

describe('layout validator', () => {
  it('accepts one document that uses every block and element type', () => {
    const result = validateLayout(everyTypeLayout());
    expect(result.ok, JSON.stringify(!result.ok && result.issues)).to.equal(true);
  });

  it('accepts the default layout and a maximal one (40 blocks, 80 elements, just under 48000 bytes)', () => {
    expect(validateLayout(defaultLayout()).ok).to.equal(true);
    const max = maximalLayout();
    const result = validateLayout(max);
    expect(result.ok, JSON.stringify(!result.ok && result.issues.slice(0, 3))).to.equal(true);
    expect(result.ok && result.bytes).to.be.within(47990, 48000);
  });

  const cases: Array<[string, (d: Doc) => void, string, { path?: Array<string | number>; type?: string }?]> = [
    ['not an object', () => undefined, 'shape'],
    ['schema 3', (d) => (d.schema = 3), 'shape', { path: ['schema'] }],
    ['an unknown top-level key', (d) => (d.theme = 'dark'), 'shape', { path: ['theme'] }],
    ['page width "huge"', (d) => (d.page.width = 'huge'), 'shape', { path: ['page', 'width'] }],
    ['page density missing', (d) => delete d.page.density, 'shape', { path: ['page', 'density'] }],
    ['no sections', (d) => (d.sections = []), 'shape', { path: ['sections'] }],
    [
      '13 sections',
      (d) =>
        (d.sections = Array.from({ length: 13 }, (_, i) => ({
          ...d.sections[0],
          id: `s${i}`,
          columns: [{ span: 12, blocks: i === 0 ? d.sections[0].columns[0].blocks : [] }],
        }))),
      'shape',
    ],
    ['a section of unknown kind', (d) => (d.sections[1].kind = 'grid'), 'shape', { path: ['sections', 1, 'kind'] }],
    [
      'four columns',
      (d) =>
        (d.sections[0].columns = [4, 4, 2, 2].map((span, i) => ({
          span,
          blocks: i === 0 ? d.sections[0].columns[0].blocks : [],
        }))),
      'shape',
    ],
    ['spans adding to 11', (d) => (d.sections[0].columns[1].span = 3), 'spans', { path: ['sections', 0, 'columns'] }],
    ['span 13', (d) => (d.sections[0].columns = [{ span: 13, blocks: d.sections[0].columns[0].blocks }]), 'shape'],
    [
      '13 blocks in a column',
      (d) => d.sections[0].columns[1].blocks.push(...Array.from({ length: 8 }, (_, i) => block(`x${i}`, 'spacer'))),
      'too_many_blocks',
      { path: ['sections', 0, 'columns', 1, 'blocks'] },
    ],
    [
      'an unknown block type',
      (d) => (d.sections[0].columns[1].blocks[0].type = 'guestbook'),
      'shape',
      { type: 'guestbook' },
    ],
    ['no identity block', (d) => d.sections[0].columns[0].blocks.shift(), 'required_missing', { type: 'identity' }],
    [
      'two identity blocks',
      (d) => d.sections[0].columns[1].blocks.push(block('me2', 'identity')),
      'too_many_of_type',
      { type: 'identity' },
    ],
    [
      'identity hidden on phones',
      (d) => (d.sections[0].columns[0].blocks[0].visibility = { ...visible, mobile: false }),
      'required_hidden',
      { type: 'identity' },
    ],
    [
      'five games blocks',
      (d) => d.sections[0].columns[1].blocks.push(...[1, 2, 3, 4].map((i) => block(`g${i}`, 'games'))),
      'too_many_of_type',
      { type: 'games' },
    ],
    [
      'a duplicate id',
      (d) => (d.sections[1].elements[1].id = 'e-img'),
      'duplicate_id',
      { path: ['sections', 1, 'elements', 1, 'id'] },
    ],
    ['visibility not boolean', (d) => (d.sections[0].columns[1].blocks[1].visibility.tablet = 'yes'), 'shape'],
    [
      'a URL in block config',
      (d) => (d.sections[0].columns[0].blocks[1].config.link = 'https://evil.example/x'),
      'shape',
    ],
    [
      'markup in block config',
      (d) => (d.sections[0].columns[0].blocks[2].config.title = '<script>alert(1)</script>'),
      'shape',
    ],
    ['markup in a text block', (d) => (d.sections[0].columns[1].blocks[1].config.text = '<b>hi</b>'), 'shape'],
    [
      'an image as a URL',
      (d) => (d.sections[0].columns[1].blocks[0].config.source = 'https://cdn.example/a.png'),
      'shape',
    ],
    [
      'an image reference of unknown kind',
      (d) => (d.sections[1].elements[0].config.source = { kind: 'url', id: 'x' }),
      'shape',
    ],
    ['a cover reference without slug', (d) => (d.sections[1].background.media = { kind: 'cover' }), 'shape'],
    ['background dim 81', (d) => (d.page.background.dim = 81), 'shape', { path: ['page', 'background', 'dim'] }],
    ['background tone "sepia"', (d) => (d.page.background.tone = 'sepia'), 'shape'],
    ['canvas aspect 0.1', (d) => (d.sections[1].aspect = 0.1), 'shape', { path: ['sections', 1, 'aspect'] }],
    ['canvas aspect 3.5', (d) => (d.sections[1].aspect = 3.5), 'shape'],
    ['canvas phone "zoom"', (d) => (d.sections[1].phone = 'zoom'), 'shape'],
    [
      '25 elements in a canvas',
      (d) =>
        d.sections[1].elements.push(
          ...Array.from({ length: 20 }, (_, i) => ({ ...d.sections[1].elements[1], id: `t${i}` })),
        ),
      'too_many_elements',
      { path: ['sections', 1, 'elements'] },
    ],
    [
      'a box past the right edge',
      (d) => (d.sections[1].elements[0].box.x = 0.6),
      'out_of_bounds',
      { path: ['sections', 1, 'elements', 0, 'box'] },
    ],
    ['a box below the area (aspect 0.5)', (d) => (d.sections[1].elements[0].box.y = 0.1), 'out_of_bounds'],
    ['a negative box', (d) => (d.sections[1].elements[0].box.x = -0.01), 'out_of_bounds'],
    ['a box thinner than 0.001', (d) => (d.sections[1].elements[3].box.h = 0.0009), 'out_of_bounds'],
    ['an unknown element type', (d) => (d.sections[1].elements[0].type = 'video'), 'shape', { type: 'video' }],
    [
      'an embedded games block',
      (d) => (d.sections[1].elements[4].config.block.type = 'games'),
      'shape',
      { type: 'games' },
    ],
    ['a fill that is not #rrggbb', (d) => (d.sections[1].elements[2].config.fill = 'red'), 'shape'],
    ['a line thickness of 0.06', (d) => (d.sections[1].elements[3].config.thickness = 0.06), 'shape'],
    ['thickness on a rectangle', (d) => (d.sections[1].elements[2].config.thickness = 0.01), 'shape'],
    ['opacity 2', (d) => (d.sections[1].elements[0].opacity = 2), 'shape'],
    ['text size 0', (d) => (d.sections[1].elements[1].config.size = 0), 'shape'],
    [
      'over 48000 bytes',
      (d) => {
        d.sections[0].columns[1].blocks[1].config.text = '€'.repeat(2000);
        d.sections[0].columns[1].blocks.push(
          ...Array.from({ length: 7 }, (_, i) => block(`p${i}`, 'text', { text: '€'.repeat(2000) })),
        );
        expect(Buffer.byteLength(JSON.stringify(d))).to.be.above(48000);
      },
      'too_large',
    ],
  ];
  for (const [what, change, code, extra] of cases) {
    it(`answers ${code} for ${what}`, () => {
      const doc = everyTypeLayout();
      const changed = change(doc);
      expectOnly(what === 'not an object' ? changed : doc, code, extra);
    });
  }

  it('counts blocks across columns and canvases: 41 is too many', () => {
    const doc = maximalLayout();
    doc.sections[2].elements[4] = { ...doc.sections[2].elements[0], id: 'extra-embedded' };
    expectOnly(doc, 'too_many_blocks', { path: ['sections'] });
  });

  it('counts elements across canvases: 81 is too many', () => {
    const doc = maximalLayout();
    doc.sections[3].elements.push({ ...doc.sections[3].elements[5], id: 'one-more' });
    expectOnly(doc, 'too_many_elements', { path: ['sections'] });
  });

  it('reports at most 20 issues', () => {
    const doc = everyTypeLayout();
    for (const column of doc.sections[0].columns) for (const b of column.blocks) b.visibility = 'everywhere';
    for (const element of doc.sections[1].elements) element.visibility = 'everywhere';
    const issues = issuesOf(doc);
    expect(issues).to.have.length(20);
  });

  describe('schema 1', () => {
    it('is upgraded: flow sections, no backgrounds, screenshot becomes source', () => {
      const legacy = {
        schema: 1,
        sections: [
          {
            columns: [
              { span: 6, blocks: [block('me', 'identity')] },
              { span: 6, blocks: [block('pic', 'image', { screenshot: 'shot_1' })] },
            ],
          },
        ],
      };
      const result = validateLayout(legacy);
      expect(result.ok, JSON.stringify(!result.ok && result.issues)).to.equal(true);
      const doc = (result as { document: Doc }).document;
      expect(doc.schema).to.equal(2);
      expect(doc.page).to.deep.equal({ width: 'normal', density: 'comfortable', background: null });
      expect(doc.sections[0]).to.include({ kind: 'flow', background: null, id: 'section-1' });
      expect(doc.sections[0].columns[1].blocks[0].config).to.deep.equal({
        source: { kind: 'screenshot', id: 'shot_1' },
      });
    });

    it('is still checked after the upgrade', () => {
      expectOnly({ schema: 1, sections: [{ columns: [{ span: 6, blocks: [block('me', 'identity')] }] }] }, 'spans');
    });
  });

  describe('removed colour keys', () => {
    it('are dropped, not refused, under schema 2, and never come back', () => {
      const doc = everyTypeLayout();
      doc.page.background.color = '#000000';
      doc.sections[0].background = { color: '#ff0000' };
      doc.sections[0].columns[0].blocks[0].style = { textColor: '#fff', background: { color: '#123456', dim: 10 } };
      Object.assign(doc.sections[1].elements[1].config, { color: '#abcdef', background: '#000000', radius: 4 });
      const result = validateLayout(doc);
      expect(result.ok, JSON.stringify(!result.ok && result.issues)).to.equal(true);
      const stored = JSON.stringify((result as { document: Doc }).document);
      expect(stored).not.to.match(/"color"|"textColor"|"radius"/);
      const saved = (result as { document: Doc }).document;
      expect(saved.sections[0].background, 'a colour-only background becomes null media').to.deep.equal({
        media: null,
      });
      expect(saved.sections[0].columns[0].blocks[0].style).to.deep.equal({ background: { dim: 10 } });
      expect(saved.sections[1].elements[1].config).to.deep.equal({ text: 'GG', size: 0.05, align: 'center' });
    });

    it('are dropped under schema 1 too', () => {
      const legacy = {
        schema: 1,
        sections: [{ columns: [{ span: 12, blocks: [{ ...block('me', 'identity'), style: { textColor: '#fff' } }] }] }],
      };
      const result = validateLayout(legacy);
      expect(result.ok).to.equal(true);
      expect(JSON.stringify((result as { document: Doc }).document)).not.to.include('textColor');
    });

    it('leave the input untouched', () => {
      const doc = everyTypeLayout();
      doc.page.background.color = '#000000';
      validateLayout(doc);
      expect(doc.page.background.color).to.equal('#000000');
    });
  });

  describe('properties', () => {
    it('never throws on arbitrary JSON, and refuses what is not a layout', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const result = validateLayout(value);
          return result.ok === false || typeof result.document === 'object';
        }),
        { numRuns: 2000 },
      );
    });

    it('never throws on mutated layouts', () => {
      const paths = fc.array(
        fc.oneof(
          fc.constantFrom('sections', 'columns', 'blocks', 'elements', 'config', 'box', 'page', 'background'),
          fc.nat(3),
        ),
        { maxLength: 6 },
      );
      fc.assert(
        fc.property(paths, fc.jsonValue(), (path, value) => {
          const doc = everyTypeLayout();
          let target: any = doc;
          for (const key of path.slice(0, -1)) {
            if (target && typeof target === 'object' && key in target) target = target[key];
          }
          if (target && typeof target === 'object' && path.length > 0) target[path[path.length - 1]] = value;
          validateLayout(doc);
          return true;
        }),
        { numRuns: 2000 },
      );
    });

    it('never accepts a document over a limit', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 16 }),
          fc.integer({ min: 0, max: 16 }),
          fc.integer({ min: 0, max: 30 }),
          (sections, blocksPerColumn, elements) => {
            const doc: Doc = {
              schema: 2,
              page: { width: 'normal', density: 'comfortable', background: null },
              sections: Array.from({ length: sections }, (_, s) =>
                s % 2 === 0
                  ? {
                      id: `s${s}`,
                      kind: 'flow',
                      background: null,
                      columns: [
                        {
                          span: 12,
                          blocks: Array.from(
                            { length: s === 0 ? Math.max(1, blocksPerColumn) : blocksPerColumn },
                            (_, b) => block(`s${s}b${b}`, s === 0 && b === 0 ? 'identity' : 'spacer'),
                          ),
                        },
                      ],
                    }
                  : {
                      id: `s${s}`,
                      kind: 'canvas',
                      background: null,
                      aspect: 3,
                      phone: 'scale',
                      elements: Array.from({ length: elements }, (_, e) => ({
                        id: `s${s}e${e}`,
                        type: 'text',
                        box: { x: 0, y: 0, w: 0.1, h: 0.1 },
                        visibility: visible,
                        config: { text: 't', size: 0.02 },
                      })),
                    },
              ),
            };
            const flows = doc.sections.filter((s: Doc) => s.kind === 'flow');
            const canvases = doc.sections.filter((s: Doc) => s.kind === 'canvas');
            const totalBlocks = flows.reduce((n: number, s: Doc) => n + s.columns[0].blocks.length, 0);
            const overLimit =
              sections > 12 ||
              flows.some((s: Doc) => s.columns[0].blocks.length > 12) ||
              totalBlocks > 40 ||
              canvases.some((s: Doc) => s.elements.length > 24) ||
              canvases.length * elements > 80 ||
              Buffer.byteLength(JSON.stringify(doc)) > 48000;
            const result = validateLayout(doc);
            return overLimit ? result.ok === false : true;
          },
        ),
        { numRuns: 1500 },
      );
    });
  });
});
