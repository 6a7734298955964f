// The stream a page with an open game listens to (spec: Events, `GRANT_UPDATE`; a development URL cleared
// or moved closes the game within 30 seconds): server-sent events for one play of the caller. `ready`
// first, then `GRANT_UPDATE` with the grant as it is now whenever it changes, and for a test play `CLOSE`
// when its development URL is gone, expired or moved to another origin. News comes by NOTIFY at once; the
// state is also re-read every 10 seconds, with a comment line that keeps proxies from closing the stream.
import { PassThrough } from 'node:stream';
import type { Knex } from 'knex';
import { ArcadeOverride } from '../../../shared/arcade/models.js';
import { ArcadeInstance } from '../../../shared/arcade/player-models.js';
import { PlayNewsHub } from '../../../shared/arcade/grant-updates.js';
import { activeGrant } from '../../../shared/arcade/grants.js';
import { notFound } from '../../../shared/platform/errors.js';
import type { JobReplies } from '../../../shared/platform/jobs/request-reply.js';
import { isUuid } from '../../../shared/platform/validation/uuid.js';
import type { AppContext } from '../../context.js';
import { sessionCaller } from '../../middleware/access.js';
import { answerEventStream } from '../../event-stream.js';

export const STREAM_RECHECK_MS = 10_000;

const hubs = new WeakMap<JobReplies, PlayNewsHub>();

function hubOf(replies: JobReplies): PlayNewsHub {
  let hub = hubs.get(replies);
  if (!hub) hubs.set(replies, (hub = new PlayNewsHub(replies.signals)));
  return hub;
}

interface Play {
  id: string;
  account_id: string;
  app_id: string;
  mode: 'live' | 'test';
  origin: string;
}

async function grantState(knex: Knex, play: Play) {
  const grant = await activeGrant(knex, play.account_id, play.app_id);
  return { granted: grant !== null, nickname: grant?.nickname ?? null, scopes: grant?.scopes ?? [] };
}

/** A test play may go on while its development URL is saved, unexpired, on the same origin. */
async function testPlayOpen(knex: Knex, play: Play): Promise<boolean> {
  const saved = await ArcadeOverride.query(knex).select('origin', 'expires_at').findById(play.app_id);
  return saved !== undefined && saved.origin === play.origin && new Date(saved.expires_at).getTime() > Date.now();
}

export async function openPlayStream(ctx: AppContext, playId: string): Promise<void> {
  const { knex, replies } = ctx.services;
  const play = isUuid(playId)
    ? await ArcadeInstance.query(knex)
        .select('id', 'account_id', 'app_id', 'mode', 'origin')
        .findOne({ id: playId, account_id: sessionCaller(ctx).account.id })
    : undefined;
  if (!play) throw notFound('You have no play with this id.', 'instance_not_found');

  const stream = new PassThrough();
  const send = (event: string, data: unknown) => stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  let last = JSON.stringify(await grantState(knex, play));
  let closed = false;
  send('ready', { instance_id: play.id, ...JSON.parse(last) });

  const recheck = async () => {
    if (closed) return;
    const now = JSON.stringify(await grantState(knex, play));
    if (now !== last) {
      last = now;
      send('GRANT_UPDATE', { instance_id: play.id, ...JSON.parse(now) });
    }
    if (play.mode === 'test' && !(await testPlayOpen(knex, play))) {
      send('CLOSE', { instance_id: play.id, reason: 'override_changed' });
      finish();
    }
  };
  const safely = () => void recheck().catch(() => undefined);
  const unsubscribe = await hubOf(replies).subscribe(play.app_id, (news) => {
    if (news.kind === 'override' || news.account_id === play.account_id) safely();
  });
  const timer = setInterval(() => {
    stream.write(': keep-alive\n\n');
    safely();
  }, STREAM_RECHECK_MS);
  timer.unref();
  function finish() {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    unsubscribe();
    stream.end();
  }
  ctx.req.on('close', finish);
  answerEventStream(ctx, stream);
}
