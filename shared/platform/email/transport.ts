// Where mail goes: an SMTP server when SMTP_URL is set, otherwise one .eml file per message under
// .data/mail/, which a developer can open in any mail program.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

function message(from: string, mail: OutgoingMail): nodemailer.SendMailOptions {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@jogatina>`,
  };
}

export function createMailTransport(options: { smtpUrl: string | null; mailDir: string; from: string }): MailTransport {
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await smtp.sendMail(message(options.from, mail));
      },
      close: () => smtp.close(),
    };
  }
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await files.sendMail(message(options.from, mail));
      await mkdir(options.mailDir, { recursive: true });
      // The id in the name makes a second delivery of the same message overwrite, not duplicate, it.
      await writeFile(path.join(options.mailDir, `${mail.id}.eml`), info.message as Buffer);
    },
    close: () => files.close(),
  };
}
