// Schema 1 (columns only, no backgrounds) is accepted and stored as schema 2: every section becomes a flow
// section with no background, and an image block's `screenshot` becomes its `source`.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const DEFAULT_PAGE = { width: 'normal', density: 'comfortable', background: null };

function upgradeBlock(block: unknown): unknown {
  if (!isObject(block) || block.type !== 'image' || !isObject(block.config) || !('screenshot' in block.config))
    return block;
  const { screenshot, ...config } = block.config;
  return { ...block, config: { ...config, source: { kind: 'screenshot', id: screenshot } } };
}

/** The schema-2 form of a schema-1 document; anything not shaped like schema 1 is left for the validator. */
export function upgradeSchema1(document: Json): Json {
  const sections = Array.isArray(document.sections) ? document.sections : document.sections;
  return {
    schema: 2,
    page: { ...DEFAULT_PAGE },
    sections: Array.isArray(sections)
      ? sections.map((section, index) =>
          isObject(section)
            ? {
                id: typeof section.id === 'string' ? section.id : `section-${index + 1}`,
                kind: 'flow',
                background: null,
                columns: Array.isArray(section.columns)
                  ? section.columns.map((column) =>
                      isObject(column) && Array.isArray(column.blocks)
                        ? { ...column, blocks: column.blocks.map(upgradeBlock) }
                        : column,
                    )
                  : section.columns,
              }
            : section,
        )
      : sections,
  };
}
