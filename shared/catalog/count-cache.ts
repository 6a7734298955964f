// A short memory of search totals, per web process. The catalog changes only when it is imported and
// when catalog.stats runs, and a total older than a minute is as good as the public answers' own
// `max-age=60`; remembering it spares every further page of a search its count query.
export class CountCache {
  private readonly entries = new Map<string, { at: number; total: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 5000,
  ) {}

  get(key: string, now = Date.now()): number | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.total;
  }

  set(key: string, total: number, now = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: now, total });
  }

  clear(): void {
    this.entries.clear();
  }
}
