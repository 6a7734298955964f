// A short memory kept in the process: each value for a time to live, at most so many of them, the oldest
// let go first when full. Used for the catalog's search totals and tab counts (as good as the public
// answers' own `max-age=60` for a minute) and for the outbound guard's DNS answers.
export class ExpiringMap<V> {
  private readonly entries = new Map<string, { at: number; value: V }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 5000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    // Oldest first out: a Map iterates in insertion order, so a value set again moves to the end.
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: now, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
