// Colour keys the layout no longer has. Under either schema they are dropped, never refused, and no answer
// carries them: `color` on a background (a colour-only background becomes one with null media),
// `textColor` on a block style, and `color`, `background`, `radius` on a text element's config.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Drops the background's colour; a background that was only a colour becomes an empty one (media null). */
export function dropBackgroundColour(background: unknown): unknown {
  if (!isObject(background) || !('color' in background)) return background;
  const { color: _color, ...rest } = background;
  return Object.keys(rest).length === 0 ? { media: null } : rest;
}

function dropFromBlock(block: unknown): void {
  if (!isObject(block) || !isObject(block.style)) return;
  delete block.style.textColor;
  if ('background' in block.style) block.style.background = dropBackgroundColour(block.style.background);
}

function dropFromElement(element: unknown): void {
  if (!isObject(element) || !isObject(element.config)) return;
  if (element.type === 'text') {
    delete element.config.color;
    delete element.config.background;
    delete element.config.radius;
  }
  if (element.type === 'block' && isObject(element.config.block)) dropFromBlock(element.config.block);
}

/** Removes every dropped key from a (cloned) document in place. */
export function dropRemovedKeys(document: Json): void {
  if (isObject(document.page) && 'background' in document.page) {
    document.page.background = dropBackgroundColour(document.page.background);
  }
  if (!Array.isArray(document.sections)) return;
  for (const section of document.sections) {
    if (!isObject(section)) continue;
    if ('background' in section) section.background = dropBackgroundColour(section.background);
    for (const column of Array.isArray(section.columns) ? section.columns : []) {
      if (isObject(column) && Array.isArray(column.blocks)) column.blocks.forEach(dropFromBlock);
    }
    if (Array.isArray(section.elements)) section.elements.forEach(dropFromElement);
  }
}
