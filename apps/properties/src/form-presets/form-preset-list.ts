import { Injectable } from '@nestjs/common';
import { PropertyList } from '../properties/property-list';

/**
 * Each client's presets in the order they were created, kept as PropertyList keeps properties
 * (gapless positions claimed by insert-once, read a page at a time by `_id`); an entry's
 * `property_id` holds the preset's id.
 */
@Injectable()
export class FormPresetList extends PropertyList {
  protected override readonly collectionName: string = 'form_preset_list';
}
