// The pure rules of reports and infractions: which kind takes which field and reason, the queue's
// priority, and when an infraction may end.
import { expect } from 'chai';
import { infractionRuleViolation } from '../../shared/moderation/infraction-rules.js';
import {
  priorityOf,
  REPORT_REASONS,
  reportRuleViolation,
  type ReportInput,
} from '../../shared/reports/report-rules.js';

describe('report rules', () => {
  const ok: ReportInput[] = [
    { on: 'PROFILE', reason: 'HARASSMENT', username: 'ana' },
    { on: 'REVIEW', reason: 'SPOILER', username: 'ana', id: 'x' },
    { on: 'ARCADE_APP', reason: 'SCAM', id: 'app', instance_id: 'i' },
    { on: 'LIST', reason: 'OTHER', username: 'ana', id: 'x', details: ' ten chars! ' },
  ];
  for (const input of ok) {
    it(`accepts ${JSON.stringify(input)}`, () => expect(reportRuleViolation(input)).to.equal(null));
  }

  const refused: Array<[ReportInput, string, string]> = [
    [{ on: 'REVIEW', reason: 'SPAM', id: 'x' }, 'username', 'missing'],
    [{ on: 'ARCADE_APP', reason: 'SCAM', id: 'x', username: 'ana' }, 'username', 'not_allowed'],
    [{ on: 'PROFILE', reason: 'SPOILER', username: 'ana' }, 'reason', 'not_allowed'],
    [{ on: 'PROFILE_COMMENT', reason: 'SCAM', username: 'ana', id: 'x' }, 'reason', 'not_allowed'],
    [{ on: 'DIARY', reason: 'SPAM', username: 'ana' }, 'id', 'missing'],
    [{ on: 'PROFILE', reason: 'SPAM', username: 'ana', id: 'x' }, 'id', 'not_allowed'],
    [{ on: 'PROFILE', reason: 'OTHER', username: 'ana' }, 'details', 'missing'],
    [{ on: 'PROFILE', reason: 'OTHER', username: 'ana', details: '  nine 789  ' }, 'details', 'too_short'],
    [{ on: 'REVIEW', reason: 'SPAM', username: 'ana', id: 'x', instance_id: 'i' }, 'instance_id', 'not_allowed'],
  ];
  for (const [input, field, reason] of refused) {
    it(`refuses ${JSON.stringify(input)} on ${field}`, () => {
      expect(reportRuleViolation(input)).to.include({ field, reason });
    });
  }

  it('puts the three urgent reasons first, SCAM next, the rest after', () => {
    const byPriority = (p: number) => REPORT_REASONS.filter((reason) => priorityOf(reason) === p);
    expect(byPriority(0)).to.deep.equal(['CHILD_SAFETY', 'SELF_HARM', 'VIOLENCE']);
    expect(byPriority(1)).to.deep.equal(['SCAM']);
    expect(byPriority(2)).to.have.length(REPORT_REASONS.length - 4);
  });
});

describe('infraction rules', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  const cases: Array<[Parameters<typeof infractionRuleViolation>[0], string | null]> = [
    [{ reason: 'Aviso' }, null],
    [{ reason: 'Aviso', expires_at: '2026-07-01T00:00:00Z' }, null],
    [{ reason: 'Aviso', expires_at: '2026-05-01T00:00:00Z' }, 'out_of_range'],
    [{ reason: 'Suspensão', expires_at: '2026-06-08T00:00:00Z' }, null],
    [{ reason: 'Suspensão' }, 'missing'],
    [{ reason: 'Suspensão', expires_at: '2026-06-01T12:00:00Z' }, 'out_of_range'],
    [{ reason: 'Banimento permanente' }, null],
    [{ reason: 'Banimento permanente', expires_at: '2027-01-01T00:00:00Z' }, 'not_allowed'],
  ];
  for (const [input, reason] of cases) {
    it(`${reason ?? 'accepts'}: ${JSON.stringify(input)}`, () => {
      const broken = infractionRuleViolation(input, now);
      if (reason === null) expect(broken).to.equal(null);
      else expect(broken).to.include({ field: 'expires_at', reason });
    });
  }
});
