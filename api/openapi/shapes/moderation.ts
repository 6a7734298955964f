// Moderation's answers (DECISIONS: Staff and moderation; shared/reports/report-queue.ts,
// shared/moderation/, shared/arcade/review.ts).
import { REPORT_KINDS, REPORT_REASONS } from '../../../shared/reports/report-rules.js';
import { INFRACTION_REASONS } from '../../../shared/moderation/infraction-rules.js';
import { CONTENT_KINDS } from '../../../shared/moderation/content-removal.js';
import {
  answer,
  anyObject,
  boolean,
  component,
  dateTime,
  integer,
  list,
  nullable,
  object,
  oneOf,
  string,
  uuid,
} from '../response-schemas.js';
import { ArcadeQueue, Notice, Review } from './arcade.js';
import { Page } from './pages-and-images.js';

const OUTCOMES = ['no_action', 'content_removed', 'warned', 'suspended', 'banned'];
const someone = nullable(object({ id: uuid(), username: nullable(string()) }));

export const QueuedReport = component(
  'QueuedReport',
  object({
    id: uuid(),
    on: oneOf(REPORT_KINDS),
    reason: oneOf(REPORT_REASONS),
    priority: integer('0 = CHILD_SAFETY, SELF_HARM, VIOLENCE; 1 = SCAM; 2 = the rest.'),
    status: oneOf(['open', 'resolved']),
    details: nullable(string()),
    instance_id: nullable(uuid()),
    reporter: someone,
    target: object({
      account_id: nullable(uuid()),
      username: nullable(string()),
      id: string('PROFILE: the account id; lists and screenshots: their public id; the rest: their id.'),
    }),
    snapshot: anyObject('The target as it was when reported.'),
    outcome: nullable(oneOf(OUTCOMES)),
    note: nullable(string()),
    resolved_by: someone,
    resolved_at: nullable(dateTime()),
    created_at: dateTime(),
  }),
);

const decided = object({ id: uuid(), number: integer(), status: string(), review: nullable(Review) });

export const MODERATION_ANSWERS = {
  reports: answer(list(QueuedReport), { page: Page }),
  resolved: answer(
    object({
      id: uuid(),
      status: oneOf(['resolved']),
      outcome: oneOf(OUTCOMES),
      note: nullable(string()),
      resolved_at: dateTime(),
    }),
  ),
  infraction: answer(
    object({
      id: uuid(),
      account_id: uuid(),
      reason: oneOf(INFRACTION_REASONS),
      details: nullable(string()),
      expires_at: nullable(dateTime()),
      created_at: dateTime(),
    }),
  ),
  publisher: answer(object({ account_id: uuid(), blocked: boolean(), blocked_at: nullable(dateTime()) })),
  content: answer(
    object({
      kind: oneOf(CONTENT_KINDS),
      id: string('Lists and screenshots: their public id; the rest: their id.'),
      removed: boolean(),
      removed_at: nullable(dateTime('When it was first removed; null once restored.')),
    }),
  ),
  actions: answer(
    list(
      object({
        id: uuid(),
        moderator: nullable(
          object({ id: uuid(), username: nullable(string()) }, { description: 'Null for the operator command.' }),
        ),
        action: string(),
        subject: object({ kind: string(), id: string() }),
        details: anyObject(),
        created_at: dateTime(),
      }),
      'Newest first.',
    ),
    { page: Page },
  ),
  arcadeQueue: answer(ArcadeQueue),
  decided: answer(decided),
  appAction: answer(
    object({
      app_id: uuid(),
      slug: string(),
      status: oneOf(['draft', 'listed', 'hidden', 'suspended', 'removed']),
      notice: nullable(Notice),
    }),
  ),
};
