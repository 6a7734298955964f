import { deliverEmail } from '../../shared/platform/email/outbox.js';
import type { JobPayloads } from '../../shared/platform/jobs/queue.js';
import type { JobHandler } from '../job-context.js';

export const sendEmail: JobHandler<JobPayloads['email.send']> = async ({ email_id }, context) => {
  const outcome = await deliverEmail(context.knex, email_id, context.mail);
  context.log.info({ email_id, outcome }, 'email delivery');
  return { outcome };
};
