// The web process's catalog copy on /metrics (shared/catalog/copy-browse.ts): how many games it holds (0
// while it has none, so searches read the database), the catalog version it was read at, and how many
// searches each way answered.
import type { Knex } from 'knex';
import { Counter, Gauge, type Registry } from 'prom-client';
import { catalogCopyInHand } from '../shared/catalog/copy-browse.js';
import { catalogAnswers } from '../shared/catalog/game-search.js';

export function catalogCopyGauge(registry: Registry, knex: Knex): void {
  new Gauge({
    name: 'jogatina_catalog_copy_games',
    help: "Games in the web process's copy of the catalog (0: none yet, browsing reads the database)",
    registers: [registry],
    collect() {
      this.set(catalogCopyInHand(knex)?.games ?? 0);
    },
  });
  new Gauge({
    name: 'jogatina_catalog_copy_version',
    help: "The catalog version (catalog_state) the web process's copy was read at; 0 without one",
    registers: [registry],
    collect() {
      this.set(catalogCopyInHand(knex)?.version ?? 0);
    },
  });
  // Read from the process's tally at each scrape: a counter that only grows, labelled by the way.
  const reported = { copy: 0, database: 0 };
  new Counter({
    name: 'jogatina_catalog_searches_total',
    help: 'GET /games searches answered, by `source`: the copy in memory, or the database (no copy yet, or being read again)',
    labelNames: ['source'],
    registers: [registry],
    collect() {
      for (const source of ['copy', 'database'] as const) {
        this.inc({ source }, catalogAnswers[source] - reported[source]);
        reported[source] = catalogAnswers[source];
      }
    },
  });
}
