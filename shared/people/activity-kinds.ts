// The kinds of activity items (spec: GET /activity `kinds`), apart so the feed's parts can name them
// without importing each other.
export const ACTIVITY_KINDS = ['entry', 'session', 'review', 'list', 'screenshot', 'journey'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
