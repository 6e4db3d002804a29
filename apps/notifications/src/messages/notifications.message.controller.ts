import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AddressLinkAnswer,
  AddressLinkDescription,
  AddressLinkDescriptionMessage,
  AddressLinkMessage,
  ClientScoped,
  formatTimestamp,
  MessageListResponse,
  NotificationSettingsResponse,
  NOTIFICATIONS,
  NotificationSubjectMessage,
  parseRequest,
  PutNotificationSettingsMessage,
  PutNotificationSettingsRequest,
  readApplicantRef,
  readSuppressionMessage,
  requireClientId,
  SuppressionMessage,
  SuppressionResponse,
} from '@app/contracts';
import {
  AddressBook,
  addressDigest,
  formerAddressDigest,
  linkExpired,
  MAIL_LINK_DAYS,
} from '../addresses/address-book.repository';
import { MessageComposer } from '../dispatch/message-composer';
import { FORM_TOKEN } from '@app/crypto';
import { toMessageRepresentation } from './message-record';
import { MessageStore } from './message-store';
import { SettingsStore } from '../settings/settings-store';

@Controller()
export class NotificationsMessageController {
  constructor(
    private readonly settings: SettingsStore,
    private readonly messages: MessageStore,
    private readonly composer: MessageComposer,
    private readonly addresses: AddressBook,
  ) {}

  @MessagePattern(NOTIFICATIONS.GET_SETTINGS)
  async getSettings(@Payload() message: ClientScoped): Promise<NotificationSettingsResponse> {
    return { notification_settings: await this.settings.get(requireClientId(message?.client_id)) };
  }

  @MessagePattern(NOTIFICATIONS.PUT_SETTINGS)
  async putSettings(@Payload() message: PutNotificationSettingsMessage): Promise<NotificationSettingsResponse> {
    const clientId = requireClientId(message?.client_id);
    const { notification_settings: input } = parseRequest(PutNotificationSettingsRequest, message.request);
    return { notification_settings: await this.settings.put(clientId, input) };
  }

  /** The applicant's messages; the gateway has made sure the applicant is the client's. */
  @MessagePattern(NOTIFICATIONS.LIST_MESSAGES)
  async listMessages(@Payload() message: NotificationSubjectMessage): Promise<MessageListResponse> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    const records = await this.messages.listForApplicant(clientId, applicationId, id);
    return { messages: records.map(toMessageRepresentation) };
  }

  /** The form's page of an e-mail's confirmation link, followed: null when no e-mail carried it. */
  @MessagePattern(NOTIFICATIONS.CONFIRM_ADDRESS)
  async confirmAddress(@Payload() message: AddressLinkMessage): Promise<AddressLinkAnswer | null> {
    return isTokenDigest(message) ? this.composer.confirmAddress(message.token_digest) : null;
  }

  /** The form's page of an e-mail's List-Unsubscribe link, followed: null when no e-mail carried it. */
  @MessagePattern(NOTIFICATIONS.UNSUBSCRIBE)
  async unsubscribe(@Payload() message: AddressLinkMessage): Promise<AddressLinkAnswer | null> {
    return isTokenDigest(message) ? this.composer.unsubscribe(message.token_digest) : null;
  }

  /** What a link's page names before its button is clicked: null when no e-mail carried it. */
  @MessagePattern(NOTIFICATIONS.DESCRIBE_LINK)
  async describeLink(@Payload() message: AddressLinkDescriptionMessage): Promise<AddressLinkDescription | null> {
    const purpose = message?.purpose === 'confirm' || message?.purpose === 'unsubscribe' ? message.purpose : null;
    if (!purpose || !isTokenDigest(message)) return null;
    const link = await this.addresses.findLink(message.token_digest, purpose);
    if (!link) return null;
    return {
      property_name: link.property_name,
      mailbox: link.mailbox ?? null,
      expired: linkExpired(link),
      lifetime_days: MAIL_LINK_DAYS,
    };
  }

  /** Whether the address is suppressed for the client's mail. */
  @MessagePattern(NOTIFICATIONS.GET_SUPPRESSION)
  getSuppression(@Payload() message: SuppressionMessage): Promise<SuppressionResponse> {
    const { clientId, email } = readSuppressionMessage(message);
    return this.suppressionOf(clientId, email);
  }

  /** Lifts the address's suppression for the client's mail; the gateway has recorded the audit event. */
  @MessagePattern(NOTIFICATIONS.LIFT_SUPPRESSION)
  async liftSuppression(@Payload() message: SuppressionMessage): Promise<SuppressionResponse> {
    const { clientId, email } = readSuppressionMessage(message);
    await this.addresses.lift(clientId, addressDigest(email));
    return this.suppressionOf(clientId, email);
  }

  private async suppressionOf(clientId: number, email: string): Promise<SuppressionResponse> {
    const found = await this.addresses.suppression(clientId, addressDigest(email), formerAddressDigest(email));
    const at = (date: Date | null) => (date ? formatTimestamp(date) : null);
    return {
      suppression: {
        email,
        suppressed: found.suppressed,
        unsubscribed_at: at(found.unsubscribedAt),
        lifted_at: at(found.liftedAt),
      },
    };
  }
}

/** A digest such as the form makes of a link's token; anything else names no link. */
function isTokenDigest(message: AddressLinkMessage | undefined): message is AddressLinkMessage {
  return typeof message?.token_digest === 'string' && FORM_TOKEN.test(message.token_digest);
}
