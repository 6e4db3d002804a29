import {
  BooleanField,
  EnumField,
  NestedField,
  StringField,
} from '../validation/fields';

export const PROPERTY_KINDS = ['multi_family', 'single_family', 'generic'] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

/** `property` inside POST /api/v2/properties. */
export class PropertyInput {
  @BooleanField()
  available?: boolean;

  @EnumField(PROPERTY_KINDS)
  kind?: PropertyKind;

  @StringField({ required: true, trim: true, min: 1, max: 255 })
  name: string;

  @StringField({ nullable: true, trim: true, max: 255 })
  street?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  city?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  state?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  zip?: string | null;

  @BooleanField()
  invitation_only?: boolean;

  @StringField({ nullable: true, trim: true, max: 2000 })
  invitation_only_message?: string | null;
}

export class CreatePropertyRequest {
  @NestedField(() => PropertyInput, { required: true })
  property: PropertyInput;
}

export interface FloorPlanRepresentation {
  id: number;
  property_id: number;
  name: string;
  beds: number | null;
  baths: number | null;
  deposit: number | null;
  rent: number | null;
}

export interface PropertyRepresentation {
  id: number;
  available: boolean;
  kind: PropertyKind;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  invitation_only: boolean;
  invitation_only_message: string;
  application_url: string;
  form_preset_id: number;
  background_config_id: number;
  floor_plans: FloorPlanRepresentation[];
}

export interface PropertyResponse {
  property: PropertyRepresentation;
}
