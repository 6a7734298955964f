// What the export leaves out (GET /account/export): the registry's counterpart, so that every table holding
// an account's rows is either exported (export-registry.ts) or named here with the reason (a test holds it).

/** Tables that hold an account's rows but are not exported, and why. */
export const NOT_EXPORTED: Record<string, string> = {
  arcade_allowlist: 'an operator setting about the account, not its data',
  arcade_listings:
    'store pages: their reviewer column names staff, and the developer reads them through the Arcade routes',
  arcade_releases:
    'releases: their reviewer column names staff, and the developer reads them through the Arcade routes',
  recovery_codes: 'hashes of secret recovery codes',
  auth_tokens: 'hashes of one-time sign-in and verification links',
  passkey_challenges: 'challenges of passkey ceremonies in flight, gone within 5 minutes',
  image_uploads: 'uploads in flight, gone within minutes',
  reports: 'moderation’s record: a report has no read side (spec), for its reporter or for the account it names',
  moderator_actions: 'staff’s audit record of what moderators did, read by staff only',
  library_counts:
    'the number of library entries, kept by the database to hold the 20,000 limit; the entries are exported',
  notification_sequences: 'a counter ordering the notification stream; the notifications are exported',
  notification_listeners: 'which processes have a notification stream of the account open, for a minute at most',
};
