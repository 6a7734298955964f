import { CONTENT_BLOCK_TYPES } from '../../shared/layout/layout-limits.js';

// Layout documents for tests: one valid document that uses every block and element type, and a maximal one.
const visible = { mobile: true, tablet: true, desktop: true };

export function everyTypeLayout(): any {
  const content = CONTENT_BLOCK_TYPES;
  return {
    schema: 2,
    page: {
      width: 'wide',
      density: 'compact',
      background: { media: { kind: 'media', id: 'img_1' }, fit: 'cover', position: 'top', dim: 40, tone: 'auto' },
    },
    sections: [
      {
        id: 'intro',
        kind: 'flow',
        background: null,
        columns: [
          {
            span: 8,
            blocks: [
              {
                id: 'me',
                type: 'identity',
                visibility: visible,
                style: { background: { media: null, tone: 'dark' } },
                config: {},
              },
              ...content.map((type) => ({
                id: `b-${type}`,
                type,
                visibility: visible,
                config: { limit: 6, game: 'half-life-2' },
              })),
            ],
          },
          {
            span: 4,
            blocks: [
              {
                id: 'pic',
                type: 'image',
                visibility: visible,
                config: { source: { kind: 'screenshot', id: 'shot_9' } },
              },
              {
                id: 'words',
                type: 'text',
                visibility: { mobile: false, tablet: true, desktop: true },
                config: { text: 'Hello, players.' },
              },
              { id: 'title', type: 'heading', visibility: visible, config: { text: 'Favourites', level: 2 } },
              { id: 'line', type: 'divider', visibility: visible, config: {} },
              { id: 'gap', type: 'spacer', visibility: visible, config: { size: 2 } },
            ],
          },
        ],
      },
      {
        id: 'board',
        kind: 'canvas',
        background: {
          media: { kind: 'cover', slug: 'hollow-knight' },
          dim: 80,
          tone: 'light',
          fit: 'contain',
          position: 'center',
        },
        aspect: 0.5,
        phone: 'stack',
        elements: [
          {
            id: 'e-img',
            type: 'image',
            box: { x: 0, y: 0, w: 0.5, h: 0.5 },
            rotation: 5,
            opacity: 1,
            locked: false,
            visibility: visible,
            config: { source: { kind: 'media', id: 'img_2' } },
          },
          {
            id: 'e-text',
            type: 'text',
            box: { x: 0.5, y: 0, w: 0.5, h: 0.1 },
            visibility: visible,
            config: { text: 'GG', size: 0.05, align: 'center' },
          },
          {
            id: 'e-rect',
            type: 'shape',
            box: { x: 0.1, y: 0.2, w: 0.2, h: 0.2 },
            visibility: visible,
            config: { shape: 'rect', fill: '#112233', stroke: null, strokeWidth: 2 },
          },
          {
            id: 'e-line',
            type: 'shape',
            box: { x: 0, y: 0.4, w: 1, h: 0.001 },
            visibility: visible,
            config: { shape: 'line', stroke: '#ffffff', thickness: 0.01 },
          },
          {
            id: 'e-block',
            type: 'block',
            box: { x: 0.6, y: 0.2, w: 0.4, h: 0.3 },
            visibility: visible,
            config: { block: { type: 'heading', config: { text: 'Now playing' } } },
          },
        ],
      },
    ],
  };
}

/** At the limits: 40 blocks, 80 elements, and padded text up to 48000 bytes of UTF-8. */
export function maximalLayout(): any {
  const blocks = Array.from({ length: 36 }, (_, i) => ({
    id: `t${i}`,
    type: 'text',
    visibility: visible,
    config: { text: 'x' },
  }));
  const doc = {
    schema: 2,
    page: { width: 'full', density: 'comfortable', background: null },
    sections: [
      {
        id: 'f',
        kind: 'flow',
        background: null,
        columns: [
          {
            span: 12,
            blocks: [{ id: 'me', type: 'identity', visibility: visible, config: {} }, ...blocks.slice(0, 11)],
          },
        ],
      },
      {
        id: 'f2',
        kind: 'flow',
        background: null,
        columns: [
          { span: 6, blocks: blocks.slice(11, 23) },
          { span: 6, blocks: blocks.slice(23, 35) },
        ],
      },
      ...[0, 1, 2, 3].map((c) => ({
        id: `c${c}`,
        kind: 'canvas',
        background: null,
        aspect: 3,
        phone: 'scale',
        elements: Array.from({ length: 20 }, (_, i) => ({
          id: `c${c}e${i}`,
          type: c === 0 && i < 4 ? 'block' : 'text',
          box: { x: 0, y: i * 0.1, w: 0.5, h: 0.1 },
          visibility: visible,
          config: c === 0 && i < 4 ? { block: { type: 'stats', config: {} } } : { text: 'y', size: 0.02 },
        })),
      })),
    ],
  };
  // Pad the texts so the whole document is just under 48000 bytes.
  const target = 48000;
  const texts = [
    ...blocks.map((b) => b.config),
    ...doc.sections.flatMap((s: any) =>
      (s.elements ?? []).filter((e: any) => e.type === 'text').map((e: any) => e.config),
    ),
  ];
  const size = () => Buffer.byteLength(JSON.stringify(doc));
  const room = Math.floor((target - size()) / texts.length);
  for (const config of texts) config.text += 'é'.repeat(Math.floor(room / 2));
  while (size() < target - 2) texts[0].text += 'a';
  return doc;
}
