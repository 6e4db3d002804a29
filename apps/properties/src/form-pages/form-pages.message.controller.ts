import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FormProperty, FormPropertyMessage, isPositiveId, PROPERTIES } from '@app/contracts';
import { FormPresetsService } from '../form-presets/form-presets.service';
import { PropertiesService } from '../properties/properties.service';

/**
 * What the application form asks of this service for a page: the property a link names and,
 * when the form names one, the preset its application is filled with, in one answer.
 */
@Controller()
export class FormPagesMessageController {
  constructor(
    private readonly properties: PropertiesService,
    private readonly presets: FormPresetsService,
  ) {}

  /**
   * The property, whoever owns it (null for an unknown id, PROPERTY_DELETED for a deleted one);
   * with `form_preset` also that preset version, or the property's current preset for null.
   */
  @MessagePattern(PROPERTIES.FORM_GET)
  async findForForm(@Payload() message: FormPropertyMessage): Promise<FormProperty | null> {
    if (!isPositiveId(message?.id)) return null;
    const found = await this.properties.findForForm(message.id);
    if (!found || message.form_preset === undefined) return found;
    const { id, version } = message.form_preset ?? { id: found.property.form_preset_id, version: undefined };
    if (!isPositiveId(id) || (version !== undefined && !isPositiveId(version))) return { ...found, preset: null };
    return { ...found, preset: await this.presets.forForm(found.client_id, id, version) };
  }
}
