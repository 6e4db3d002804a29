import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AddressLinkAnswer,
  AddressLinkMessage,
  ClientScoped,
  MessageListResponse,
  NotificationSettingsResponse,
  NOTIFICATIONS,
  NotificationSubjectMessage,
  parseRequest,
  PutNotificationSettingsMessage,
  PutNotificationSettingsRequest,
  readApplicantRef,
  requireClientId,
} from '@app/contracts';
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
}

/** A digest such as the form makes of a link's token; anything else names no link. */
function isTokenDigest(message: AddressLinkMessage | undefined): message is AddressLinkMessage {
  return typeof message?.token_digest === 'string' && FORM_TOKEN.test(message.token_digest);
}
