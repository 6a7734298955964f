// The field rules of POST /reports that look at more than one field (spec: Reports), as a pure function.
// Types, enums, lengths and unknown fields are the route's JSON schema; what is left is which kind takes
// which field and reason. The database repeats the reason rules as checks (see the migration).

export const REPORT_KINDS = [
  'PROFILE',
  'REVIEW',
  'LIST',
  'SCREENSHOT',
  'DIARY',
  'PROFILE_COMMENT',
  'CONTENT_COMMENT',
  'ARCADE_APP',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_REASONS = [
  'HARASSMENT',
  'HATE_SPEECH',
  'SPAM',
  'IMPERSONATION',
  'SEXUAL_CONTENT',
  'CHILD_SAFETY',
  'SELF_HARM',
  'VIOLENCE',
  'PRIVACY',
  'SPOILER',
  'SCAM',
  'OTHER',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const DETAILS_MAX = 1000;
/** OTHER says nothing by itself: it needs this many characters of details, spaces around them not counted. */
export const OTHER_DETAILS_MIN = 10;

export interface ReportInput {
  on: ReportKind;
  reason: ReportReason;
  username?: string;
  id?: string;
  details?: string;
  instance_id?: string;
}

export interface RuleViolation {
  field: keyof ReportInput;
  reason: 'missing' | 'not_allowed' | 'too_short';
  message: string;
}

/** The queue's order (spec: CHILD_SAFETY, SELF_HARM, VIOLENCE first; SCAM also moves ahead). */
export function priorityOf(reason: ReportReason): 0 | 1 | 2 {
  if (reason === 'CHILD_SAFETY' || reason === 'SELF_HARM' || reason === 'VIOLENCE') return 0;
  return reason === 'SCAM' ? 1 : 2;
}

/** The first rule the input breaks, in the order of the spec's table, or null. */
export function reportRuleViolation(input: ReportInput): RuleViolation | null {
  const arcade = input.on === 'ARCADE_APP';
  if (!arcade && input.username === undefined) {
    return { field: 'username', reason: 'missing', message: 'username is required: whose is the reported thing?' };
  }
  if (arcade && input.username !== undefined) {
    return {
      field: 'username',
      reason: 'not_allowed',
      message: 'An Arcade report takes the account from the game; leave username out.',
    };
  }
  if (input.on === 'PROFILE' && input.reason === 'SPOILER') {
    return { field: 'reason', reason: 'not_allowed', message: 'SPOILER is only for posted things, not a profile.' };
  }
  if (!arcade && input.reason === 'SCAM') {
    return { field: 'reason', reason: 'not_allowed', message: 'SCAM is only for Arcade games (ARCADE_APP).' };
  }
  if (input.on !== 'PROFILE' && input.id === undefined) {
    return { field: 'id', reason: 'missing', message: 'id is required: which thing is reported?' };
  }
  if (input.on === 'PROFILE' && input.id !== undefined) {
    return { field: 'id', reason: 'not_allowed', message: 'A profile is named by username alone; leave id out.' };
  }
  if (input.reason === 'OTHER') {
    const length = input.details?.trim().length ?? 0;
    if (length < OTHER_DETAILS_MIN) {
      return {
        field: 'details',
        reason: input.details === undefined ? 'missing' : 'too_short',
        message: `With OTHER, details must say what is wrong in at least ${OTHER_DETAILS_MIN} characters.`,
      };
    }
  }
  if (!arcade && input.instance_id !== undefined) {
    return { field: 'instance_id', reason: 'not_allowed', message: 'instance_id is only for ARCADE_APP reports.' };
  }
  return null;
}

/** What a moderator decided of a report (POST /moderation/reports/{id}/resolve). */
export const REPORT_OUTCOMES = ['no_action', 'content_removed', 'warned', 'suspended', 'banned'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];
