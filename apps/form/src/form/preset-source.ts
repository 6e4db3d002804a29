import { Injectable } from '@nestjs/common';
import { FORM_PRESET_PATTERNS, formPreset, FormPreset, FormPresetForFormMessage, PropertyRepresentation } from '@app/contracts';
import { FormBackends } from '../backends/form-backends';

/**
 * Where the form gets the preset a property names: at the version an applicant started with, or
 * its current one. The one place that knows where presets are kept: the properties service, which
 * reads it as the property's client sees it.
 */
@Injectable()
export class FormPresetSource {
  constructor(private readonly backends: FormBackends) {}

  async find(property: PropertyRepresentation, version?: number): Promise<FormPreset> {
    const message: FormPresetForFormMessage = { property_id: property.id, form_preset_id: property.form_preset_id };
    if (version !== undefined) message.version = version;
    const found = await this.backends.properties<FormPreset | null>(FORM_PRESET_PATTERNS.FORM_GET, message);
    // A property stored before presets were checked may name none; it gets the first shipped one.
    return found ?? formPreset(property.form_preset_id);
  }
}
