/**
 * Makes each message once: rendered, stored under its key with the status it starts in, and its
 * sending queued. Holds a message to an address typed on the form until the address is
 * confirmed, answers the confirmation and unsubscribe links every message carries, and erases
 * an application's messages with its applicants' personal data.
 */
import { Injectable } from '@nestjs/common';
import { AddressLinkAnswer, ApplicantType, MessageKind } from '@app/contracts';
import { countNotificationMessage } from '@app/observability';
import { carriesAdverseActionNotice, DecisionData, renderMessage } from '@app/mail';
import {
  CONFIRMATIONS_PER_MAILBOX_AN_HOUR,
  FORM_INVITATIONS_PER_APPLICATION,
  FORM_INVITATIONS_PER_SENDER_A_DAY,
  NotificationsEnvironment,
} from '../config/notifications.environment';
import { AddressBook, addressDigest, formerAddressDigest, linkExpired } from '../addresses/address-book.repository';
import { HELD_UNCONFIRMED, MessageDraft, messageKey, newMessageRecord, queueAfterClaim } from '../messages/message-record';
import { MessageStore } from '../messages/message-store';
import { SettingsStore } from '../settings/settings-store';
import { placesExpireAt, utcDay, utcHour } from './daily-caps';
import { NotificationQueues } from './notification-queues';

/** Whom a message goes to and what it is about. */
export interface Recipient {
  client_id: number;
  application_id: number | null;
  applicant_id: number | null;
  property_id: number;
  property_name: string;
  email: string;
  first_name: string | null;
  /** Who listed the addressee on their own form, by full name (an invitation says so). */
  added_by?: string | null;
  /** Whose application the addressee joins, by full name, when no form listed it (an invitation says so). */
  joins?: string | null;
  /** When the invitation's link stops working (an invitation to a property's form says so). */
  expires_at?: string | null;
  /** The addressee's form link, beside which is the page to withdraw the application; none before there is one. */
  form_url?: string | null;
  /** The addressee's place in the application: a co-applicant's or guarantor's withdraw page withdraws only itself. */
  type?: ApplicantType;
  /** For a decision's message: what was decided. */
  decided?: DecisionData;
  /** Whether the address was typed on the public form: nothing but its confirmation goes there until it is confirmed. */
  email_from_form?: boolean;
  /** For one named on the form: the address of the applicant who named it. */
  added_by_email?: string | null;
}

@Injectable()
export class MessageComposer {
  constructor(
    private readonly messages: MessageStore,
    private readonly addresses: AddressBook,
    private readonly settings: SettingsStore,
    private readonly queues: NotificationQueues,
    private readonly env: NotificationsEnvironment,
  ) {}

  /**
   * Stores the message once under its key and queues its sending. The same event again finds it
   * stored and queues nothing, unless no attempt was made yet (see queueAfterClaim): an attempt
   * skips a message sent meanwhile. Every message about an application carries the page where
   * the addressee can withdraw it, beside its form link, and every message the page that stops
   * all e-mail to its address. A message to an address that asked for none is stored
   * `suppressed`; to an address typed on the form and not confirmed, `held`, and the address is
   * sent the one message that asks it to confirm.
   */
  async compose(source: string, kind: MessageKind, recipient: Recipient, url: string | null): Promise<void> {
    // A late event or a reminder due after the erasure must not store the address again.
    if (recipient.application_id !== null && (await this.messages.isErased(recipient.client_id, recipient.application_id)))
      return;
    const settings = await this.settings.get(recipient.client_id);
    const now = new Date();
    const address = addressDigest(recipient.email);
    const unsubscribe = await this.addresses.newLink('unsubscribe', address, recipient);
    const listUnsubscribe = this.mailLink('unsubscribe', unsubscribe);
    const content = renderMessage(
      kind,
      {
        first_name: recipient.first_name,
        property_name: recipient.property_name,
        url,
        sender_name: settings.sender_name,
        added_by: recipient.added_by ?? null,
        joins: recipient.joins ?? null,
        expires_at: recipient.expires_at ?? null,
        withdraw_url: kind === 'address_confirmation' ? null : withdrawUrlOf(recipient.form_url),
        withdraws_own_part: recipient.type !== undefined && recipient.type !== 'primary',
        decision: recipient.decided ?? null,
        unsubscribe_url: listUnsubscribe,
      },
      now,
    );
    const draft: Omit<MessageDraft, 'status'> = {
      source,
      kind,
      to: recipient.email,
      client_id: recipient.client_id,
      application_id: recipient.application_id,
      applicant_id: recipient.applicant_id,
      property_id: recipient.property_id,
      from_name: settings.sender_name,
      reply_to: settings.reply_to,
      content,
      list_unsubscribe: listUnsubscribe,
      required_notice: kind === 'decision' && carriesAdverseActionNotice(recipient.decided),
    };
    const key = messageKey(source, kind, recipient.email);
    const status = await this.statusOf(kind, recipient, address, key, now, draft.required_notice);
    const held =
      status === 'held' ? { held_reason: HELD_UNCONFIRMED, held_until: new Date(now.getTime() + this.env.holdMs) } : {};
    const record = { ...newMessageRecord({ ...draft, status }, this.env.MAIL_FROM, now), ...held };
    const created = await this.messages.create(record);
    countNotificationMessage(kind, created ? (status === 'pending' ? 'made' : status) : 'already_made');
    const stored = created ? record : await this.messages.find(record._id);
    if (stored?.status === 'held') {
      // Also when the event came again: the try that stored it may have stopped before this.
      await this.addresses.hold(recipient.client_id, address, key);
      // Its hold ends on the broker's clock, however often it is queued: only a held message ends it.
      await this.queues.publish(this.queues.names.heldWait, { key, retry: 0, hold_over: true });
      await this.askToConfirm(recipient, address, source);
      // Confirmed while this was being held: its release may have read the list before it was in.
      if (await this.addresses.isConfirmed(recipient.client_id, address, formerAddressDigest(recipient.email))) {
        await this.release(key);
      }
      return;
    }
    const queued = !created && stored?.status === 'pending' && (await this.messages.isQueued(key));
    if (queueAfterClaim(created, stored, queued)) await this.queue(key);
  }

  /** Queues the message's first attempt, then marks it queued: a redelivered event queues no second. */
  private async queue(key: string): Promise<void> {
    await this.queues.publish(this.queues.names.outgoing, { key, retry: 0 });
    await this.messages.markQueued(key);
  }

  /**
   * What a new message starts as: `suppressed` for an address on the suppression list (but for a
   * notice the law requires, `required`), or an
   * invitation from the form past its caps (per application, and a day per address of the one
   * who named the people's mailbox, and a day per property), or an address confirmation past its
   * mailbox's hourly cap; `held` for an address typed on the form that its client's messages
   * have not had confirmed; else `pending`. Caps count mailboxes (addressDigest), not spellings.
   */
  private async statusOf(kind: MessageKind, recipient: Recipient, address: string, key: string, now: Date, required: boolean) {
    if (!required && (await this.addresses.isSuppressed(recipient.client_id, address, formerAddressDigest(recipient.email))))
      return 'suppressed';
    const day = utcDay(now);
    const take = (cap: string, count: number) => this.addresses.takePlace(cap, count, key, placesExpireAt(day));
    if (kind === 'invitation' && recipient.added_by_email && recipient.application_id !== null) {
      // The sender's address is typed on the form: a fresh one per form costs nothing, so the
      // property, which no visitor can make, bounds them all together.
      const withinCaps =
        (await this.addresses.takePlace(`invited:${recipient.application_id}`, FORM_INVITATIONS_PER_APPLICATION, key)) &&
        (await take(`invited-by:${addressDigest(recipient.added_by_email)}:${day}`, FORM_INVITATIONS_PER_SENDER_A_DAY)) &&
        (await take(`invited-at:${recipient.property_id}:${day}`, this.env.FORM_INVITATIONS_PER_PROPERTY_A_DAY));
      if (!withinCaps) return 'suppressed';
    }
    if (kind === 'address_confirmation') {
      const withinCap = await take(`asked:${address}:${utcHour(now)}`, CONFIRMATIONS_PER_MAILBOX_AN_HOUR);
      return withinCap ? 'pending' : 'suppressed';
    }
    if (!recipient.email_from_form) return 'pending';
    const confirmed = await this.addresses.isConfirmed(recipient.client_id, address, formerAddressDigest(recipient.email));
    return confirmed ? 'pending' : 'held';
  }

  /**
   * The message that asks an address typed on the form to be confirmed: once per application (or
   * per notice, for one about none) and address, so that a stranger who typed the address first
   * uses up no later application's; at most CONFIRMATIONS_PER_MAILBOX_AN_HOUR a mailbox.
   */
  private async askToConfirm(recipient: Recipient, address: string, source: string): Promise<void> {
    const token = await this.addresses.newLink('confirm', address, recipient);
    // Nothing the visitor typed is shown to an address not yet confirmed: not even the name it gave.
    const asked: Recipient = {
      ...recipient,
      first_name: null,
      added_by: null,
      joins: null,
      expires_at: null,
      decided: undefined,
    };
    const need = recipient.application_id === null ? source : `application-${recipient.application_id}`;
    await this.compose(`address:${recipient.client_id}:${need}`, 'address_confirmation', asked, this.mailLink('confirm', token));
  }

  /** An address confirmed by the link its confirmation carried: its held messages go. */
  async confirmAddress(tokenDigest: string): Promise<AddressLinkAnswer | null> {
    const link = await this.addresses.findLink(tokenDigest, 'confirm');
    // An expired link does nothing; its page says so (describeLink).
    if (!link || linkExpired(link)) return null;
    await this.addresses.confirm(link.client_id, link.address);
    for (const key of await this.addresses.heldMessages(link.client_id, link.address)) await this.release(key);
    return { property_name: link.property_name };
  }

  /** An address whose e-mail's List-Unsubscribe was followed: no message is sent to it any more. */
  async unsubscribe(tokenDigest: string): Promise<AddressLinkAnswer | null> {
    const link = await this.addresses.findLink(tokenDigest, 'unsubscribe');
    // An expired link does nothing; its page says so (describeLink).
    if (!link || linkExpired(link)) return null;
    await this.addresses.suppress(link.address);
    return { property_name: link.property_name };
  }

  /**
   * The application's personal data was erased: its messages keep no address, content or link,
   * none held is ever sent, and neither the lists of held messages nor the caps' places name them
   * (their keys held the address). Done again by a redelivered event, it changes nothing.
   */
  async eraseApplication(clientId: number, applicationId: number): Promise<void> {
    await this.addresses.forgetMessages(await this.messages.eraseApplication(clientId, applicationId));
  }

  /** Queues a held message, once confirmed; instances that both do send it once (the lease). */
  private async release(key: string): Promise<void> {
    if ((await this.messages.find(key))?.status !== 'held') return;
    await this.messages.update(key, { status: 'pending' });
    await this.queue(key);
  }

  private mailLink(purpose: 'confirm' | 'unsubscribe', token: string): string {
    return `${this.env.APPLY_BASE_URL.replace(/\/+$/, '')}/mail/${purpose}/${token}`;
  }
}

/** The form's page where the applicant whose form link is `formUrl` withdraws (the application, or itself from it). */
function withdrawUrlOf(formUrl: string | null | undefined): string | null {
  return formUrl ? `${formUrl}/withdraw` : null;
}
