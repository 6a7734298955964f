// The web process's catalog copy on /metrics (shared/catalog/copy-browse.ts): how many games it holds (0
// while it has none, so browsing reads the database) and the catalog version it was read at.
import type { Knex } from 'knex';
import { Gauge, type Registry } from 'prom-client';
import { catalogCopyInHand } from '../shared/catalog/copy-browse.js';

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
}
