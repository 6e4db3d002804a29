import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  ContractPipe,
  CreateFormPresetRequest,
  FORM_PRESET_PATTERNS,
  FormPreset,
  FormPresetForFormMessage,
  FormPresetPageResponse,
  FormPresetRefMessage,
  FormPresetResponse,
  IdempotencyKeyPipe,
  ApiKeyIdPipe,
  isPositiveId,
  ListFormPresetsMessage,
  parseRequest,
  readFormPresetRef,
  readIfMatch,
  readListFormPresets,
  requireClientId,
  UpdateFormPresetMessage,
  UpdateFormPresetRequest,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { PropertiesRepository } from '../properties/properties.repository';
import { FormPresetsService } from './form-presets.service';

@Controller()
export class FormPresetsMessageController {
  constructor(
    private readonly presets: FormPresetsService,
    private readonly properties: PropertiesRepository,
  ) {}

  @MessagePattern(FORM_PRESET_PATTERNS.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Payload('request', new ContractPipe(CreateFormPresetRequest)) request: CreateFormPresetRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<FormPresetResponse> {
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { form_preset: await this.presets.create(requireClientId(clientId), request.form_preset, scope) };
  }

  @MessagePattern(FORM_PRESET_PATTERNS.LIST)
  async list(@Payload() message: ListFormPresetsMessage): Promise<FormPresetPageResponse> {
    const { clientId, page } = readListFormPresets(message);
    const { items, next_cursor } = await this.presets.listPage(clientId, page);
    return { form_presets: items, next_cursor };
  }

  @MessagePattern(FORM_PRESET_PATTERNS.GET)
  async get(@Payload() message: FormPresetRefMessage): Promise<FormPresetResponse> {
    const { clientId, id, version } = readFormPresetRef(message);
    return { form_preset: await this.presets.get(clientId, id, version) };
  }

  @MessagePattern(FORM_PRESET_PATTERNS.UPDATE)
  async update(@Payload() message: UpdateFormPresetMessage, @Ctx() context: RmqContext): Promise<FormPresetResponse> {
    const { clientId, id } = readFormPresetRef(message);
    const { form_preset } = parseRequest(UpdateFormPresetRequest, message.request);
    const requestKey = `message:${messageIdOf(context.getMessage())}`;
    return { form_preset: await this.presets.update(clientId, id, form_preset, readIfMatch(message), requestKey) };
  }

  /** Answers null once deleted: the gateway answers 204 with no body. */
  @MessagePattern(FORM_PRESET_PATTERNS.DELETE)
  async delete(@Payload() message: FormPresetRefMessage, @Ctx() context: RmqContext): Promise<null> {
    const { clientId, id } = readFormPresetRef(message);
    await this.presets.delete(clientId, id, readIfMatch(message), `message:${messageIdOf(context.getMessage())}`);
    return null;
  }

  /** The form names the property; the preset is read as the property's client sees it. */
  @MessagePattern(FORM_PRESET_PATTERNS.FORM_GET)
  async findForForm(@Payload() message: FormPresetForFormMessage): Promise<FormPreset | null> {
    const { property_id: propertyId, form_preset_id: id, version } = message ?? {};
    if (!isPositiveId(propertyId) || !isPositiveId(id) || (version !== undefined && !isPositiveId(version))) return null;
    const property = await this.properties.find(propertyId);
    if (!property || property.deleted_at) return null;
    return this.presets.forForm(property.client_id, id, version);
  }
}
