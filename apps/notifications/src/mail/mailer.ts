import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import { createTransport, Transporter } from 'nodemailer';
import { inSpan } from '@app/observability';
import { NotificationsEnvironment } from '../config/notifications.environment';
import { MessageRecord } from '../messages/message-record';

/** The mail server at SMTP_URL, through nodemailer: one message handed over per call, pooled connections. */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly transport: Transporter;

  constructor(private readonly env: NotificationsEnvironment) {
    const timeout = env.SMTP_TIMEOUT_MS;
    this.transport = createTransport({
      url: env.SMTP_URL,
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  /**
   * Resolves once the mail server took the message; rejects with why it did not, or as soon as
   * `signal` aborts: the send stops there, taken out of the pool's queue or its connection closed.
   * Traced as a span of its own (no instrumentation knows nodemailer), with the kind of e-mail.
   */
  async send(message: MessageRecord, signal: AbortSignal): Promise<void> {
    await inSpan('smtp send', () => this.sendMail(message, signal), {
      kind: SpanKind.CLIENT,
      attributes: { 'rental.notification.kind': message.kind },
    });
  }

  private async sendMail(message: MessageRecord, signal: AbortSignal): Promise<void> {
    // Only a message still to be sent is handed over: it has its content and address.
    const content = message.content!;
    await this.transport.sendMail({
      signal,
      messageId: message.message_id,
      from: { name: message.from_name ?? '', address: this.env.MAIL_FROM },
      to: message.to!,
      ...(message.reply_to ? { replyTo: message.reply_to } : {}),
      subject: content.subject,
      text: content.text,
      html: content.html,
      headers: {
        'Auto-Submitted': 'auto-generated',
        // One click in the reader (RFC 8058) puts the address on the suppression list.
        ...(message.list_unsubscribe
          ? { 'List-Unsubscribe': `<${message.list_unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
          : {}),
      },
    });
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
