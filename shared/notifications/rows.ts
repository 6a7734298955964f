// What a notification is made of (DECISIONS: Notifications). The table and its kinds are in migration
// 20261126000100_notifications; `seq` orders one recipient's stream (see there why it is not a sequence).

export const NOTIFICATION_KINDS = [
  'follow',
  'follow_request',
  'follow_accepted',
  'comment',
  'like',
  'award',
  'arcade_review',
  'infraction',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** NOTIFYed with the recipient's account id at the commit of each new or collapsed notification. */
export const NOTIFICATION_CHANNEL = 'jogatina_notifications';

/** How long notifications are kept (the retention purge). */
export const NOTIFICATION_RETENTION_DAYS = 90;

/** What a notification is about, as clients name it (a review's uuid, a list's public id, a username). */
export interface NotificationSubject {
  kind: string;
  id: string;
}

/** One notification to write. */
export interface NotificationInput {
  recipientId: string;
  kind: NotificationKind;
  /** Who did it; null when the service did (a moderation decision, an infraction). */
  actorId: string | null;
  subject?: NotificationSubject | null;
  data?: Record<string, unknown>;
}
