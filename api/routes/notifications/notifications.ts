// A person's notifications (DECISIONS: Notifications): `notifications.read` reads them (read allowance) and
// marks them read (a write: the write allowance); the live stream is the website's alone (stream.ts).
import { listNotifications, unreadCount } from '../../../shared/notifications/load-notifications.js';
import { markRead, type ReadMarks } from '../../../shared/notifications/mark-read.js';
import { presentNotification } from '../../../shared/notifications/presenters.js';
import { invalidRequest } from '../../../shared/platform/errors.js';
import { scoped, sessionOnly } from '../../middleware/access.js';
import { validate } from '../../middleware/validate.js';
import type { VersionedRoutes } from '../versioned.js';
import { NOTIFICATION_DOCS } from './notifications-docs.js';
import { markReadBody, notificationsQuery } from './schemas.js';
import { openNotificationStream } from './stream.js';

/** Exactly one of `ids` and `all`: the schema checks each, this the pair. */
function readMarks(body: { ids?: string[]; all?: true }): ReadMarks {
  if (body.ids !== undefined && body.all !== undefined) {
    throw invalidRequest('Send either ids or all, not both.', { field: 'all', reason: 'not_allowed' });
  }
  if (body.ids !== undefined) return { ids: body.ids };
  if (body.all !== undefined) return { all: true };
  throw invalidRequest('Send ids (1 to 100 notification ids) or all: true.', { field: 'ids', reason: 'missing' });
}

export function notificationRoutes(api: VersionedRoutes): void {
  api.get(
    '/notifications',
    scoped('notifications.read', 'read'),
    validate({ query: notificationsQuery }),
    NOTIFICATION_DOCS.list,
    async (ctx) => {
      const { knex, media } = ctx.services;
      const query = ctx.state.input.query as { unread?: number; before?: string; limit: number };
      const page = await listNotifications(knex, ctx.state.caller!.account.id, query);
      ctx.body = {
        data: page.rows.map((row) => presentNotification(row, (key) => media.url(key))),
        has_more: page.has_more,
        next_before: page.next_before,
      };
    },
  );

  api.get(
    '/notifications/unread-count',
    scoped('notifications.read', 'read'),
    NOTIFICATION_DOCS.unreadCount,
    async (ctx) => {
      ctx.body = { data: { unread: await unreadCount(ctx.services.knex, ctx.state.caller!.account.id) } };
    },
  );

  api.post(
    '/notifications/read',
    scoped('notifications.read', 'write'),
    validate({ body: markReadBody }),
    NOTIFICATION_DOCS.markRead,
    async (ctx) => {
      const marks = readMarks(ctx.state.input.body as { ids?: string[]; all?: true });
      ctx.body = { data: { marked: await markRead(ctx.services.knex, ctx.state.caller!.account.id, marks) } };
    },
  );

  api.get('/notifications/stream', sessionOnly({ allowance: 'read' }), NOTIFICATION_DOCS.stream, async (ctx) => {
    await openNotificationStream(ctx);
  });
}
