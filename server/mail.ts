import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Transporter } from 'nodemailer';

// Every outgoing email and SMS (DESIGN §2). Messages are written to the outbox directory as one JSON file each,
// `{kind, to, subject, text, html?, createdAt}`, which is how demo rooms and tests read invitations and codes.
// With SMTP_URL set, email goes out over SMTP instead; there is no SMS gateway, so SMS always lands in the outbox.

export interface OutgoingMessage {
  kind: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface OutboxRecord extends OutgoingMessage {
  createdAt: string;
}

export class Mailer {
  /** The SMTP transport, made on the first email: nodemailer is not loaded at start-up (issue 18). */
  private smtp: Promise<Transporter> | null = null;

  constructor(
    private readonly outboxDir: string,
    private readonly smtpUrl: string | null,
    private readonly log: Logger,
    private readonly from = 'Gatehouse <no-reply@gatehouse.local>',
  ) {}

  private transport(smtpUrl: string): Promise<Transporter> {
    return (this.smtp ??= import('nodemailer').then((nodemailer) =>
      nodemailer.default.createTransport(smtpUrl),
    ));
  }

  /**
   * Queues the message and returns at once: a slow mail server must not hold a request, and a failed send must
   * not tell a registrant whether an address exists. Failures are logged without the message body.
   */
  send(message: OutgoingMessage): void {
    if (message.kind === 'email' && this.smtpUrl) {
      this.transport(this.smtpUrl)
        .then((smtp) =>
          smtp.sendMail({
            from: this.from,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          }),
        )
        .catch((err: unknown) => this.log.error({ err, kind: message.kind }, 'email delivery failed'));
      return;
    }
    try {
      this.writeOutbox(message);
    } catch (err) {
      this.log.error({ err, kind: message.kind }, 'outbox write failed');
    }
  }

  private writeOutbox(message: OutgoingMessage): void {
    mkdirSync(this.outboxDir, { recursive: true, mode: 0o700 });
    const createdAt = new Date().toISOString();
    const record: OutboxRecord = { ...message, createdAt };
    const name = `${createdAt.replace(/[:.]/g, '-')}-${message.kind}-${randomUUID()}.json`;
    const tmp = join(this.outboxDir, `.${name}.tmp`);
    writeFileSync(tmp, JSON.stringify(record, null, 2), { mode: 0o600 });
    renameSync(tmp, join(this.outboxDir, name)); // readers never see a half-written message
  }
}
