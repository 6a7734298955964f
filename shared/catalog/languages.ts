// Language codes as the catalog keeps them: every code with its base language too, so a search for `pt`
// overlaps both `pt-BR` and `pt-PT` while `pt-BR` matches only itself.
const CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function isLanguageCode(value: string): boolean {
  return CODE.test(value);
}

/** `pt-BR` → ['pt-BR', 'pt']; `en` → ['en']. Region parts keep their case as BCP 47 writes them. */
export function languageTerms(code: string): string[] {
  const [base, region] = code.split('-');
  const lower = base.toLowerCase();
  return region ? [`${lower}-${region.toUpperCase()}`, lower] : [lower];
}

/** The stored array of a game for a set of codes. */
export function storedLanguages(codes: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const code of codes) if (isLanguageCode(code)) for (const term of languageTerms(code)) out.add(term);
  return [...out].sort();
}
