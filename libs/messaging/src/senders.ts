import { Logger } from '@nestjs/common';
import type { ConsumeMessage } from 'amqplib';
import { Pattern, PATTERN_SENDERS, SenderRole } from '@app/contracts';
import { countDeadLettered } from '@app/observability';

/** The broker user an AMQP URL connects as: `guest`, RabbitMQ's default, when it names none. */
export function brokerUserOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || 'guest';
}

/** The `user_id` of a message, which RabbitMQ checks is its publisher's broker user; undefined when it has none. */
export function senderOf(message: { properties?: { userId?: unknown } }): string | undefined {
  const sender = message.properties?.userId;
  return typeof sender === 'string' ? sender : undefined;
}

/** Thrown for a message whose sender may not put it on its queue: it is refused unworked (see ackWhenDone). */
export class UntrustedSender extends Error {
  constructor(queue: string, sender: string | undefined) {
    super(`a message on ${queue} from an untrusted sender (${sender ?? 'none'})`);
  }
}

/**
 * Who may put a message on a queue that a service consumes itself (the domain events, say, which
 * any user with write on the default exchange could otherwise forge for any client): the broker
 * users `accepted`, and the service's own user, which puts back what it moves or backs off. With
 * none accepted, any sender is.
 */
export class SenderCheck {
  private readonly logger = new Logger('Senders');
  private readonly accepted: ReadonlySet<string>;

  constructor(accepted: readonly string[], ownUser: string) {
    this.accepted = new Set(accepted.length > 0 ? [...accepted, ownUser] : []);
  }

  /**
   * For a queue that only the service itself feeds (its work queues, and the retry and wait queues
   * that dead-letter back into them, which keep the `user_id` of the message they hold): its own
   * broker user alone, whatever else is configured.
   */
  static ownOnly(ownUser: string): SenderCheck {
    return new SenderCheck([ownUser], ownUser);
  }

  /** Throws UntrustedSender, counted as dead-lettered from `queue`, unless the message's sender is accepted. */
  assertAccepted(queue: string, message: Pick<ConsumeMessage, 'properties'>): void {
    if (this.accepted.size === 0) return;
    const sender = senderOf(message);
    if (sender !== undefined && this.accepted.has(sender)) return;
    const refusal = new UntrustedSender(queue, sender);
    this.logger.warn(refusal.message);
    countDeadLettered(queue, 'untrusted_sender');
    throw refusal;
  }
}

/**
 * Which patterns each broker user may send, from TRUSTED_SENDERS entries (`role`, or `role:user`
 * when the role's broker user has another name) read against PATTERN_SENDERS. With no entries,
 * anyone may send anything (local runs, tests).
 */
export class PatternSenders {
  private readonly rolesOf = new Map<string, Set<SenderRole>>();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [role, user = role] = entry.split(':') as [SenderRole, string?];
      if (!this.rolesOf.has(user)) this.rolesOf.set(user, new Set());
      this.rolesOf.get(user)!.add(role);
    }
  }

  allows(pattern: string, sender: string | undefined): boolean {
    if (this.rolesOf.size === 0) return true;
    const roles = sender === undefined ? undefined : this.rolesOf.get(sender);
    const allowed: readonly SenderRole[] | undefined = PATTERN_SENDERS[pattern as Pattern];
    return roles !== undefined && allowed !== undefined && allowed.some((role) => roles.has(role));
  }
}
