import { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the mail server took it, parsed, with the envelope's recipients. */
export interface ReceivedMail {
  recipients: string[];
  parsed: ParsedMail;
  /** The whole message as it came over SMTP. */
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), keeping every message it takes, parsed with
 * mailparser. It can be told to refuse an address for a number of tries (a temporary 451), as a
 * mail server that is busy does, or be down for a while: nothing listening on its port.
 */
export class SmtpInbox {
  readonly received: ReceivedMail[] = [];
  /** Addresses refused, and how many more tries each. */
  private readonly refusals = new Map<string, number>();
  /** Tries refused so far, by address. */
  readonly refused = new Map<string, number>();

  private readonly port: number;

  private constructor(private readonly server: SMTPServer) {
    this.port = (server.server.address() as AddressInfo).port;
  }

  static async start(): Promise<SmtpInbox> {
    let inbox: SmtpInbox | undefined = undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const address_ = address.address.toLowerCase();
        const left = inbox!.refusals.get(address_) ?? 0;
        if (left > 0) {
          inbox!.refusals.set(address_, left - 1);
          inbox!.refused.set(address_, (inbox!.refused.get(address_) ?? 0) + 1);
          // Quoting the recipient, as Postfix and most servers do.
          const error = Object.assign(new Error(`<${address.address}>: mailbox busy, try again later`), { responseCode: 451 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              inbox!.received.push({ recipients: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), parsed, raw });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    inbox = new SmtpInbox(server);
    return inbox;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Stops listening and closes the connections the senders keep open: a connection is refused until `up`. */
  async down(): Promise<void> {
    const closed = new Promise((resolve) => this.server.server.close(resolve));
    for (const connection of this.server.connections) connection.close();
    await closed;
  }

  /** Listens again on the same port. */
  up(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Refuses the next `times` tries to deliver to `address`; Infinity for every one. */
  refuse(address: string, times: number): void {
    this.refusals.set(address.toLowerCase(), times);
  }

  /** The messages to `address`, as they came. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.recipients.includes(address.toLowerCase()));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
