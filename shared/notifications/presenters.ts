// A notification as GET /notifications and the stream's `data:` show it (the notifications contract): the
// actor as people show inside someone else's page (shared/people/presenters.ts's person summary), with their
// id; the subject as clients name it; `data` as its writer stored it. The summary is written out here, not
// imported: moderation writes notifications and people reads moderation, so notifications importing people
// would close a loop between the folders.
import type { NotificationRow } from './load-notifications.js';

export function presentNotification(row: NotificationRow, mediaUrl: (key: string) => string) {
  return {
    id: row.id,
    kind: row.kind,
    actor:
      row.actor_id === null
        ? null
        : {
            id: row.actor_id,
            username: row.username,
            display_name: row.display_name ?? '',
            avatar_url: row.avatar_key ? mediaUrl(row.avatar_key) : null,
          },
    subject: row.subject_kind === null ? null : { kind: row.subject_kind, id: row.subject_id! },
    data: row.data,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}

export type PresentedNotification = ReturnType<typeof presentNotification>;

/** One server-sent event: `id` lets a reconnecting client resume after it (`Last-Event-ID`). */
export function notificationEvent(seq: number, notification: PresentedNotification): string {
  // JSON text holds no raw line break, so the whole notification is one `data:` line.
  return `id: ${seq}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`;
}
