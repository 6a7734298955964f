// The orders of GET /games. Each matches an index exactly (NULLS LAST included), so a page read from the
// database reads only the rows it shows; the catalog's copy in memory (copy-*.ts) is sorted by the same.
import type { GameSort } from './search-parameters.js';

export const ORDER: Record<GameSort, string> = {
  popular: 'g.popularity DESC NULLS LAST, g.id',
  trending: 'g.trending DESC NULLS LAST, g.id',
  rating: 'g.weighted_rating DESC NULLS LAST, g.id',
  votes: 'g.rating_count DESC NULLS LAST, g.id',
  newest: 'g.release_date DESC NULLS LAST, g.id',
  oldest: 'g.release_date ASC NULLS LAST, g.id',
  hype: 'g.hype DESC NULLS LAST, g.id',
  name: 'g.name_folded, g.id',
};
