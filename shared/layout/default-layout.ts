// The layout everyone sees until a profile saves its own: one flow section with the identity block.
export function defaultLayout() {
  return {
    schema: 2,
    page: { width: 'normal', density: 'comfortable', background: null },
    sections: [
      {
        id: 'main',
        kind: 'flow',
        background: null,
        columns: [
          {
            span: 12,
            blocks: [
              {
                id: 'identity',
                type: 'identity',
                visibility: { mobile: true, tablet: true, desktop: true },
                config: {},
              },
            ],
          },
        ],
      },
    ],
  };
}
