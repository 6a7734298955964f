// The Koa application and the order of its middleware (see ARCHITECTURE: a request, end to end).
import Router from '@koa/router';
import Koa from 'koa';
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import { createAuthServices } from '../shared/auth/services.js';
import type { Config } from '../shared/platform/config.js';
import { Allowances } from '../shared/keys/allowances.js';
import type { JobReplies } from '../shared/platform/jobs/request-reply.js';
import type { Logger } from '../shared/platform/logger.js';
import { type MediaStorage } from '../shared/platform/storage/media-storage.js';
import type { AppState } from './context.js';
import { refuseNul } from './middleware/refuse-nul.js';
import { authenticate } from './middleware/authenticate.js';
import { jsonBody } from './middleware/body.js';
import { conditionalReads } from './middleware/conditional.js';
import { cors } from './middleware/cors.js';
import { requestFrame } from './middleware/request-frame.js';
import { appRoutes } from './routes/account/apps.js';
import { appEventRoutes } from './routes/account/app-events.js';
import { arcadeDeveloperRoutes } from './routes/arcade/developer.js';
import { arcadeEnableRoutes } from './routes/arcade/enable.js';
import { arcadeMediaRoutes } from './routes/arcade/media.js';
import { arcadeOverrideRoutes } from './routes/arcade/override.js';
import { arcadePlayerRoutes } from './routes/arcade/player.js';
import { arcadePublicRoutes } from './routes/arcade/public.js';
import { arcadeJwksRoutes } from './routes/arcade/jwks.js';
import { arcadeDataEventRoutes } from './routes/arcade/data-events.js';
import { arcadeModerationRoutes } from './routes/moderation/arcade.js';
import { dataRoutes } from './routes/account/data.js';
import { keyRoutes } from './routes/account/keys.js';
import { sessionRoutes } from './routes/account/sessions.js';
import { standingRoutes } from './routes/account/standing.js';
import { usernameRoutes } from './routes/account/username.js';
import { authRoutes } from './routes/auth/routes.js';
import { passkeyRoutes } from './routes/auth/passkey-routes.js';
import { healthRoutes } from './routes/health.js';
import { metricsEndpoint } from './routes/metrics.js';
import { createMetrics } from '../shared/platform/metrics/metrics.js';
import { catalogCopyGauge } from './catalog-copy-gauge.js';
import { QUEUES } from '../shared/platform/jobs/queue.js';
import { mediaFiles } from './routes/media-files.js';
import { meRoutes } from './routes/me.js';
import { appIconRoutes } from './routes/account/app-icon.js';
import { companyRoutes } from './routes/catalog/companies.js';
import { searchCountRoutes } from './routes/catalog/counts.js';
import { peopleSearchRoutes } from './routes/people/search-and-index.js';
import { libraryRoutes } from './routes/library/library.js';
import { journalRoutes } from './routes/journal/journal.js';
import { reviewRoutes } from './routes/reviews/reviews.js';
import { listRoutes } from './routes/lists/lists.js';
import { screenshotWriteRoutes } from './routes/screenshots/screenshots.js';
import { likeRoutes } from './routes/social/likes.js';
import { commentRoutes } from './routes/social/comments.js';
import { notificationRoutes } from './routes/notifications/notifications.js';
import { historyRoutes } from './routes/history/history.js';
import { walletRoutes } from './routes/wallet/wallet.js';
import { awardRoutes } from './routes/awards/awards.js';
import { gameRoutes } from './routes/catalog/games.js';
import { profileLayoutRoutes } from './routes/people/profile-layout.js';
import { peopleRoutes } from './routes/people/profiles.js';
import { peopleCollectionRoutes } from './routes/people/collections.js';
import { socialRoutes } from './routes/social/social.js';
import { reportRoutes } from './routes/reports/reports.js';
import { moderationRoutes } from './routes/moderation/moderation.js';
import { peopleStandingRoutes } from './routes/people/standing.js';
import { connectionRoutes } from './routes/people/connections.js';
import { screenshotRoutes } from './routes/people/screenshots.js';
import { statsRoutes } from './routes/people/stats.js';
import { yearRoutes } from './routes/people/year.js';
import { discoveryRoutes } from './routes/people/discovery.js';
import { activityRoutes } from './routes/people/activity.js';
import { layoutMediaRoutes } from './routes/profile/layout-media.js';
import { layoutRoutes } from './routes/profile/layout.js';
import { pictureRoutes } from './routes/profile/pictures.js';
import { profileRoutes } from './routes/profile/profile.js';
import { withIndexedMatching } from './routes/indexed-router.js';
import { VersionedRoutes } from './routes/versioned.js';
import { docsPage, referenceRoutes } from './routes/reference.js';
import type { ApiServices } from './services.js';
import { ViewRecorder } from '../shared/history/recording.js';
import { createMediaStorage } from '../shared/platform/storage/create-media-storage.js';

export const JSON_LIMIT_BYTES = 1024 * 1024;

export type AppConfig = Pick<
  Config,
  | 'keyPrefix'
  | 'publicOrigin'
  | 'publicUrl'
  | 'secret'
  | 'allowancePerHour'
  | 'media'
  | 'mediaDir'
  | 'images'
  | 'arcade'
  | 'outbound'
  | 'metricsToken'
>;

export interface AppDependencies {
  knex: Knex;
  log: Logger;
  config: AppConfig;
  /** A function, so health sees the queue stop during shutdown. */
  boss: () => PgBoss | null;
  /** Extra routers mounted after the API's own (tests mount probes of the middleware here). */
  extraRoutes?: Router<AppState>[];
  /**
   * How many proxies in front set X-Forwarded-For (TRUST_PROXY): the client is the address the outermost
   * trusted one saw, and entries a client wrote before it are ignored. 0: the socket's address.
   */
  trustProxy?: number;
  /** Tests shrink allowances to reach their limits quickly. */
  allowances?: Allowances;
  /** Tests pass a storage in a temporary folder; otherwise the configuration's is built. */
  media?: MediaStorage;
  /** The process's job-answer listener (see shared/platform/jobs/request-reply.ts). */
  replies: JobReplies;
}

export function createServices(deps: AppDependencies): ApiServices {
  const secure = deps.config.publicUrl.startsWith('https:');
  return {
    knex: deps.knex,
    log: deps.log,
    boss: deps.boss,
    auth: createAuthServices(deps.knex, deps.config.secret, deps.config.publicUrl),
    allowances: deps.allowances ?? new Allowances(deps.config.allowancePerHour),
    media: deps.media ?? createMediaStorage(deps.config),
    replies: deps.replies,
    images: deps.config.images,
    arcade: deps.config.arcade,
    outbound: deps.config.outbound,
    keyPrefix: deps.config.keyPrefix,
    publicOrigin: deps.config.publicOrigin,
    sessionCookie: { name: secure ? '__Host-sid' : 'sid', secure },
    views: new ViewRecorder(deps.knex, deps.log),
  };
}

export function createApp(deps: AppDependencies): Koa<AppState> {
  const hops = deps.trustProxy ?? 0;
  // maxIpsCount keeps only the entries the trusted hops appended, so ctx.ip is the one the outermost saw.
  const app = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // Errors are rendered by requestFrame; Koa's own handler would print them a second time.
  app.silent = true;
  app.context.services = createServices(deps);

  const metrics = createMetrics(deps.knex, Object.keys(QUEUES));
  catalogCopyGauge(metrics.registry, deps.knex);
  // One flat router for every route (see routes/versioned.ts): one path match per request.
  const router = withIndexedMatching(new Router<AppState>());
  app.use(requestFrame(deps.log, metrics));
  // Preflights are answered from the router's methods, before anything reads the request.
  app.use(cors(router));
  // Public files, answered before body parsing and authentication (see routes/media-files.ts).
  app.use(mediaFiles());
  app.use(docsPage());
  app.use(metricsEndpoint(metrics, deps.config.metricsToken));
  // ETag, 304 and Cache-Control of the router's answers.
  app.use(conditionalReads());
  app.use(jsonBody({ limitBytes: JSON_LIMIT_BYTES }));
  app.use(refuseNul());
  app.use(authenticate());

  healthRoutes(router, deps.knex, deps.boss);
  authRoutes(router);
  passkeyRoutes(router);
  const api = new VersionedRoutes(router);
  meRoutes(api);
  sessionRoutes(api);
  appRoutes(api);
  appEventRoutes(api);
  arcadeEnableRoutes(api);
  arcadeDeveloperRoutes(api);
  arcadeMediaRoutes(api);
  arcadeOverrideRoutes(api);
  arcadeDataEventRoutes(api);
  arcadePlayerRoutes(api);
  keyRoutes(api);
  usernameRoutes(api);
  standingRoutes(api);
  dataRoutes(api);
  profileRoutes(api);
  layoutRoutes(api);
  layoutMediaRoutes(api);
  pictureRoutes(api);
  appIconRoutes(api);
  // Before the routes with a username in the path: `/profiles/levels` is not a person.
  peopleStandingRoutes(api);
  profileLayoutRoutes(api);
  connectionRoutes(api);
  screenshotRoutes(api);
  statsRoutes(api);
  yearRoutes(api);
  discoveryRoutes(api);
  activityRoutes(api);
  peopleRoutes(api);
  peopleCollectionRoutes(api);
  socialRoutes(api);
  reportRoutes(api);
  moderationRoutes(api);
  arcadeModerationRoutes(api);
  arcadePublicRoutes(api);
  arcadeJwksRoutes(api);
  gameRoutes(api);
  companyRoutes(api);
  searchCountRoutes(api);
  peopleSearchRoutes(api);
  libraryRoutes(api);
  journalRoutes(api);
  reviewRoutes(api);
  listRoutes(api);
  screenshotWriteRoutes(api);
  likeRoutes(api);
  commentRoutes(api);
  notificationRoutes(api);
  historyRoutes(api);
  walletRoutes(api);
  awardRoutes(api);
  // Last: the reference is built from every route declared before it.
  referenceRoutes(api, router, deps.config.publicUrl);
  for (const extra of deps.extraRoutes ?? []) router.use(extra.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
