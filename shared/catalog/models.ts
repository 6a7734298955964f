// The catalog: its games, each game's activity counts (game_stats, kept by the catalog.stats job), and
// the facet tables games point at by id. The catalog copy's reads (copy-*.ts) stay SQL: the `catalog`
// benchmark keeps them.
import { BaseModel } from '../platform/db/base-model.js';

export class Game extends BaseModel {
  static override tableName = 'games';
  static override touchesUpdatedAt = true;

  declare id: number;
  declare igdb_id: number | null;
  declare slug: string;
  declare name: string;
  declare release_date: string | null;
  declare release_year: number | null;
  declare type: number | null;
  declare status: string;
  declare demo_available: boolean;
  declare demo_url: string | null;
  declare store_url: string | null;
  declare hours_main: number | null;
  declare platform_ids: number[];
  declare genre_ids: number[];
  declare theme_ids: number[];
  declare mode_ids: number[];
  declare perspective_ids: number[];
  declare publisher_ids: number[];
  declare developer_ids: number[];
  declare engine_ids: number[];
  declare franchise_ids: number[];
  declare series_ids: number[];
  declare age_esrb: number | null;
  declare age_pegi: number | null;
  declare age_cero: number | null;
  declare age_usk: number | null;
  declare age_grac: number | null;
  declare age_class_ind: number | null;
  declare age_acb: number | null;
  declare interface_languages: string[];
  declare audio_languages: string[];
  declare subtitle_languages: string[];
  declare rating: number | null;
  declare rating_count: number;
  declare weighted_rating: number | null;
  declare review_count: number;
  declare library_count: number;
  declare popularity: number;
  declare upstream_popularity: number;
  declare trending: number;
  declare hype: number;
  declare created_at: Date;
  declare updated_at: Date;
  declare browsable: boolean | null;
  declare name_folded: string | null;
  declare has_store: boolean | null;
  declare language_bits: number;
  declare cover_image_id: string | null;
}

export class GameStats extends BaseModel {
  static override tableName = 'game_stats';
  static override idColumn = 'game_id';

  declare game_id: number;
  declare library: number;
  declare playing: number;
  declare finished: number;
  declare wishlisted: number;
  declare favorited: number;
  declare reviewing: number;
  declare journeys: number;
  declare sessions: number;
  declare recent_activity: number;
  declare rating: number | null;
  declare rating_count: number;
  declare review_count: number;
  declare updated_at: Date;
}

/** A facet table's model: an id upstream gave, a name and a slug. */
function facetModel(table: string) {
  return class Facet extends BaseModel {
    static override tableName = table;

    declare id: number;
    declare name: string;
    declare slug: string | null;
    declare updated_at: Date;
  };
}

export type FacetModel = ReturnType<typeof facetModel>;

export const CatalogPlatform = facetModel('catalog_platforms');
export const CatalogGenre = facetModel('catalog_genres');
export const CatalogTheme = facetModel('catalog_themes');
export const CatalogMode = facetModel('catalog_modes');
export const CatalogPerspective = facetModel('catalog_perspectives');
export const CatalogEngine = facetModel('catalog_engines');
export const CatalogFranchise = facetModel('catalog_franchises');
export const CatalogSeries = facetModel('catalog_series');

/** A company also has a status, a founding date and how many catalog games it published and developed. */
export class CatalogCompany extends facetModel('catalog_companies') {
  declare status: string | null;
  declare start_date: string | null;
  declare published_count: number;
  declare developed_count: number;
}
