import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
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
import { toMessageRepresentation } from './message-record';
import { MessageStore } from './message-store';
import { SettingsStore } from '../settings/settings-store';

@Controller()
export class NotificationsMessageController {
  constructor(
    private readonly settings: SettingsStore,
    private readonly messages: MessageStore,
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
}
