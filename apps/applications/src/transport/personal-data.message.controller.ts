import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApplicationResponse,
  APPLICATIONS,
  ClientScoped,
  ErasePersonalDataMessage,
  parseRequest,
  PutRetentionSettingsMessage,
  PutRetentionSettingsRequest,
  readApplicationRef,
  readRequester,
  readRetentionRequester,
  requireClientId,
  RetentionSettingsResponse,
} from '@app/contracts';
import { PersonalDataErasure } from '../use-cases/personal-data-erasure';
import { RetentionSettings } from '../use-cases/retention-settings';

/** Erasures of applicants' personal data asked for through the API, and how long a client keeps it. */
@Controller()
export class PersonalDataMessageController {
  constructor(
    private readonly erasure: PersonalDataErasure,
    private readonly settings: RetentionSettings,
  ) {}

  @MessagePattern(APPLICATIONS.ERASE_PERSONAL_DATA)
  async erase(@Payload() message: ErasePersonalDataMessage): Promise<ApplicationResponse> {
    const { clientId, id } = readApplicationRef(message);
    return { application: await this.erasure.erase(clientId, id, readRequester(message)) };
  }

  @MessagePattern(APPLICATIONS.GET_RETENTION_SETTINGS)
  async getSettings(@Payload() message: ClientScoped): Promise<RetentionSettingsResponse> {
    return { retention_settings: await this.settings.get(requireClientId(message?.client_id)) };
  }

  @MessagePattern(APPLICATIONS.PUT_RETENTION_SETTINGS)
  async putSettings(@Payload() message: PutRetentionSettingsMessage): Promise<RetentionSettingsResponse> {
    const clientId = requireClientId(message?.client_id);
    const { retention_settings } = parseRequest(PutRetentionSettingsRequest, message.request);
    const requester = readRetentionRequester(message);
    return { retention_settings: await this.settings.put(clientId, retention_settings, requester) };
  }
}
