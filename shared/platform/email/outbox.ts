// Commands of the email outbox. A message is queued in the caller's transaction (row and job together,
// or neither) and delivered later by the worker; delivery is at least once.
import type { Knex } from 'knex';
import { sendJob } from '../jobs/queue.js';
import { OutboxEmail } from './outbox-email.js';
import type { MailTransport } from './transport.js';
import { isUuid } from '../validation/uuid.js';

export interface EmailInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
}

export async function queueEmail(trx: Knex.Transaction, input: EmailInput): Promise<OutboxEmail> {
  const email = await OutboxEmail.query(trx).insertAndFetch({
    to_address: input.to,
    subject: input.subject,
    text_body: input.text,
    html_body: input.html ?? null,
    kind: input.kind,
  });
  await sendJob(trx, 'email.send', { email_id: email.id });
  return email;
}

export type DeliveryOutcome = 'sent' | 'already_sent' | 'gone';

/** One delivery attempt; a missing or already sent email is done, a transport error is thrown for a retry. */
export async function deliverEmail(knex: Knex, emailId: string, transport: MailTransport): Promise<DeliveryOutcome> {
  // A payload that cannot name a row can never succeed: done, not retried.
  if (!isUuid(emailId)) return 'gone';
  const email = await OutboxEmail.query(knex).findById(emailId);
  if (!email) return 'gone';
  if (email.sent_at) return 'already_sent';
  try {
    await transport.send({
      id: email.id,
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      html: email.html_body ?? undefined,
    });
  } catch (error) {
    await OutboxEmail.query(knex)
      .findById(emailId)
      .patch({ attempts: email.attempts + 1, last_error: String((error as Error).message ?? error).slice(0, 1000) });
    throw error;
  }
  await OutboxEmail.query(knex)
    .findById(emailId)
    .patch({ attempts: email.attempts + 1, sent_at: new Date(), last_error: null });
  return 'sent';
}
