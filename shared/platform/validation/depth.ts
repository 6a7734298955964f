// How deeply a parsed JSON value nests, measured without recursion. Every later step that walks input (the
// NUL check, ajv, the layout validator) may recurse per level; a 10 KB body of 5,000 nested arrays would
// overflow their stacks (a 500). The body step refuses anything deeper than MAX_JSON_DEPTH first, so those
// walks only ever meet bounded input.

/** The deepest nesting a JSON body may have: the layout document, the deepest the API takes, needs about a dozen. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects and arrays more than `limit` levels deep (a scalar is depth 0). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(next) ? next : Object.values(next as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
