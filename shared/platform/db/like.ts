// LIKE patterns from what people type: their own `%`, `_` and `\` are taken literally (escaped with the
// default escape character), so a search for "100%" is not a search for "100" followed by anything.

/** `text` with LIKE's wildcards and escape character escaped. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern matching `text` anywhere. */
export const likeContaining = (text: string) => `%${escapeLike(text)}%`;
