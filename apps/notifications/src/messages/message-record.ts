import { createHash } from 'node:crypto';
import { formatTimestamp, MessageKind, MessageRepresentation, MessageStatus } from '@app/contracts';
import { MailContent } from '@app/mail';

/**
 * One message to one recipient, stored under `<source>:<kind>:<address>` (the source being the
 * event or notice it follows from): inserted once, so a redelivered event finds it, whatever it
 * became, and sends nothing again.
 */
export interface MessageRecord {
  _id: string;
  /** The Message-ID header, the same on every attempt: a mail server or reader that saw one drops the other. */
  message_id: string;
  client_id: number;
  application_id: number | null;
  applicant_id: number | null;
  property_id: number;
  kind: MessageKind;
  /** Null once the applicant's personal data was erased (see erasedMessage). */
  to: string | null;
  from_name: string | null;
  reply_to: string | null;
  /** Until it is sent or given up; then dropped, since it holds the addressee's form link. */
  content: MailContent | null;
  /**
   * The page that stops every e-mail to the address, for the List-Unsubscribe header; dropped with
   * the content. Absent on messages stored before it was sent.
   */
  list_unsubscribe?: string | null;
  status: MessageStatus;
  /** A notice the law requires (a decline's adverse action notice): sent to a suppressed address too. Absent: false. */
  required_notice?: boolean;
  attempts: number;
  last_error: string | null;
  /** Why it was held (HELD_UNCONFIRMED), kept once it is released or its hold ends; absent on one never held. */
  held_reason?: string | null;
  /** When its hold ends: then, not released, it is recorded `failed`. Absent on one held before holds ended. */
  held_until?: Date | null;
  /** While an instance is handing it to the mail server: no other does meanwhile. */
  lease_until: Date | null;
  created_at: Date;
  sent_at: Date | null;
}

/** What a message is about, before it is stored. */
export interface MessageDraft {
  source: string;
  kind: MessageKind;
  to: string;
  client_id: number;
  application_id: number | null;
  applicant_id: number | null;
  property_id: number;
  from_name: string | null;
  reply_to: string | null;
  content: MailContent;
  list_unsubscribe: string | null;
  required_notice: boolean;
  /** `held` until its address is confirmed, `suppressed` never to be sent; `pending` otherwise. */
  status: Extract<MessageStatus, 'pending' | 'held' | 'suppressed'>;
}

/** The one reason a message is held: its address was typed on the form and its owner has not confirmed it. */
export const HELD_UNCONFIRMED = 'address_unconfirmed' as const;

export function messageKey(source: string, kind: MessageKind, to: string): string {
  return `${source}:${kind}:${to.toLowerCase()}`;
}

/** A Message-ID made from the key alone: every attempt, from any instance, sends the same one. */
export function messageIdFor(key: string, mailFrom: string): string {
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1);
  return `<${createHash('sha256').update(key).digest('hex').slice(0, 32)}@${domain}>`;
}

export function newMessageRecord(draft: MessageDraft, mailFrom: string, now: Date): MessageRecord {
  const { source, ...fields } = draft;
  const key = messageKey(source, draft.kind, draft.to);
  const unsent = draft.status === 'suppressed' ? { content: null, list_unsubscribe: null } : {};
  return {
    _id: key,
    message_id: messageIdFor(key, mailFrom),
    ...fields,
    ...unsent,
    attempts: 0,
    last_error: null,
    lease_until: null,
    created_at: now,
    sent_at: null,
  };
}

/**
 * Whether a message found on claiming it is to be queued for sending. A new one is. One that was
 * stored already (the event came again) only while no attempt has been made and its marker says
 * it was never queued: the try that stored it may have stopped before it queued it. A task queued
 * twice would only wait out the first one's lease and be dropped. Once attempted, its retries are
 * the broker's.
 */
export function queueAfterClaim(created: boolean, stored: MessageRecord | null, queued: boolean): boolean {
  if (created) return true;
  return !queued && stored !== null && stored.status === 'pending' && stored.attempts === 0;
}

/** What follows a failed attempt: the retry (seconds to wait) or, with the schedule spent, giving up. */
export function afterFailure(retry: number, schedule: number[]): { retryInSeconds: number } | 'give_up' {
  return retry < schedule.length ? { retryInSeconds: schedule[retry] } : 'give_up';
}

/** Anything shaped like an e-mail address, bracketed or not. */
const ADDRESS = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:]+/g;

/**
 * Why an attempt failed, as it is stored and logged: a mail server's answer often quotes the
 * recipient (`550 5.1.1 <ann@example.com>: Recipient address rejected`), and neither the message
 * record's `last_error` nor a log line may keep an address once its owner's data is erased.
 */
export function attemptError(error: unknown): string {
  return String(error).replace(ADDRESS, '[address]').slice(0, 500);
}

/** The statuses of a message not sent yet, nor given up. */
const UNSENT: MessageStatus[] = ['pending', 'retrying', 'held'];

/**
 * A message once its applicant's personal data is erased: stored under a key of its Message-ID
 * (the key it had names its address), without its address, content, link or last error, and
 * never sent if it was not yet. It is still listed, with its kind, status and dates.
 */
export function erasedMessage(record: MessageRecord): MessageRecord {
  return {
    ...record,
    _id: `erased:${record.message_id}`,
    to: null,
    content: null,
    list_unsubscribe: null,
    last_error: null,
    lease_until: null,
    status: UNSENT.includes(record.status) ? 'suppressed' : record.status,
  };
}

export function toMessageRepresentation(record: MessageRecord): MessageRepresentation {
  return {
    id: record.message_id,
    kind: record.kind,
    to: record.to,
    status: record.status,
    attempts: record.attempts,
    sent_at: record.sent_at ? formatTimestamp(record.sent_at) : null,
    held_reason: record.held_reason === HELD_UNCONFIRMED ? HELD_UNCONFIRMED : null,
    held_until: record.held_until ? formatTimestamp(record.held_until) : null,
    created_at: formatTimestamp(record.created_at),
  };
}
