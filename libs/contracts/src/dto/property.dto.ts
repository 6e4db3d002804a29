import { ApiProperty } from '@nestjs/swagger';
import { BooleanField, EmailField, EnumField, IntegerField, NestedField, PhoneField, StringField } from '../validation/fields';

export const PROPERTY_KINDS = ['multi_family', 'single_family', 'generic'] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

/** What a new property gets for each field its creator leaves out: documented and applied. */
export const PROPERTY_DEFAULTS = {
  available: true,
  kind: 'multi_family',
  invitation_only: false,
  invitation_only_message: '',
} as const satisfies Record<string, unknown>;

const ADDRESS_LINE = 'Empty string when left out.';
const MANAGER =
  'The landlord or management company applicants deal with: the form shows it with its contact beside the property, ' +
  'and names it as who receives an SSN.';

/** `property` inside POST /api/v2/properties. */
export class PropertyInput {
  @BooleanField()
  @ApiProperty({
    description: 'When true, the online application form accepts applications for the property.',
    default: PROPERTY_DEFAULTS.available,
    example: true,
  })
  available?: boolean;

  @EnumField(PROPERTY_KINDS)
  @ApiProperty({
    description:
      'multi_family: several floor plans, the form asks for one and for the desired unit. ' +
      'single_family: one floor plan, the form asks for neither. ' +
      'generic: no floor plan, the form asks the applicant to describe the desired property.',
    default: PROPERTY_DEFAULTS.kind,
    example: 'multi_family',
  })
  kind?: PropertyKind;

  @StringField({ required: true, trim: true, min: 1, max: 255 })
  @ApiProperty({ description: 'Property name, trimmed.', example: 'Maple Court' })
  name: string;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `Street address line. ${ADDRESS_LINE}`, example: '12 Maple St' })
  street?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `City. ${ADDRESS_LINE}`, example: 'Springfield' })
  city?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `State abbreviation. ${ADDRESS_LINE}`, example: 'IL' })
  state?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `Postal code. ${ADDRESS_LINE}`, example: '62701' })
  zip?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `${MANAGER} ${ADDRESS_LINE}`, example: 'Maple Property Management' })
  manager_name?: string | null;

  @EmailField({ nullable: true, max: 254 })
  @ApiProperty({ description: `The manager's e-mail address for applicants. ${ADDRESS_LINE}`, example: 'leasing@maple.example' })
  manager_email?: string | null;

  @PhoneField({ nullable: true })
  @ApiProperty({
    description: `The manager's phone number for applicants: 10 to 15 digits once spaces, -, (, ), . and + are taken out; stored as the digits. ${ADDRESS_LINE}`,
    example: '(217) 555-0134',
  })
  manager_phone?: string | null;

  @BooleanField()
  @ApiProperty({
    description: 'When true, the online application form accepts only people with invitations.',
    default: PROPERTY_DEFAULTS.invitation_only,
    // True, as the example's invitation_only_message only means something then.
    example: true,
  })
  invitation_only?: boolean;

  @StringField({ nullable: true, trim: true, max: 2000 })
  @ApiProperty({
    description:
      'Shown to an applicant who arrives at an invitation-only property without an invitation, on a page that names nothing else of the property.',
    default: PROPERTY_DEFAULTS.invitation_only_message,
    example: 'Please ask the leasing office for an invitation.',
  })
  invitation_only_message?: string | null;

  @IntegerField({ min: 1 })
  @ApiProperty({
    description:
      'The form preset the online application form uses: one of the client’s own (/api/v2/form_presets) or a ' +
      'shipped one; anything else is a 422. Left out: the client’s configured default.',
    example: 2,
  })
  form_preset_id?: number;
}

export class CreatePropertyRequest {
  @NestedField(() => PropertyInput, { required: true })
  property: PropertyInput;
}

/**
 * Floor plans a property may have: they live inside the property's document, which every change
 * of one rewrites, and no building has more kinds of unit.
 */
export const MAX_FLOOR_PLANS = 100;

export class FloorPlanRepresentation {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ type: 'integer', example: 1 })
  property_id: number;

  @ApiProperty({ description: 'The property name, for the floor plan made with the property.', example: 'Maple Court' })
  name: string;

  @ApiProperty({ type: 'number', nullable: true, description: 'Bedrooms.', example: null })
  beds: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'Bathrooms; fractional values occur.', example: null })
  baths: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'Deposit amount.', example: null })
  deposit: number | null;

  @ApiProperty({ type: 'number', nullable: true, description: 'Rent amount.', example: null })
  rent: number | null;
}

export class PropertyRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Allocated per resource type, increasing, never reused.', example: 1 })
  id: number;

  @ApiProperty({ example: true })
  available: boolean;

  @ApiProperty({ enum: PROPERTY_KINDS, example: 'multi_family' })
  kind: PropertyKind;

  @ApiProperty({ example: 'Maple Court' })
  name: string;

  @ApiProperty({ example: '12 Maple St' })
  street: string;

  @ApiProperty({ example: 'Springfield' })
  city: string;

  @ApiProperty({ example: 'IL' })
  state: string;

  @ApiProperty({ example: '62701' })
  zip: string;

  @ApiProperty({ description: `${MANAGER} "" when unset.`, example: 'Maple Property Management' })
  manager_name: string;

  @ApiProperty({ description: 'The manager’s e-mail address for applicants; "" when unset.', example: 'leasing@maple.example' })
  manager_email: string;

  @ApiProperty({ description: 'The manager’s phone number for applicants, its digits; "" when unset.', example: '2175550134' })
  manager_phone: string;

  @ApiProperty({ example: false })
  invitation_only: boolean;

  @ApiProperty({ example: '' })
  invitation_only_message: string;

  @ApiProperty({
    format: 'uri',
    description: 'The property’s online application form: <PUBLIC_BASE_URL>/properties/<id>/apply.',
    example: 'http://localhost:3000/properties/1/apply',
  })
  application_url: string;

  @ApiProperty({
    type: 'integer',
    description:
      'The form preset of the online application form: the one given, else the client’s default (configured, 1 unless set).',
    example: 1,
  })
  form_preset_id: number;

  @ApiProperty({ type: 'integer', description: 'The client’s default background config (configured, 1 unless set).', example: 1 })
  background_config_id: number;

  @ApiProperty({
    type: [FloorPlanRepresentation],
    maxItems: MAX_FLOOR_PLANS,
    description: 'Every floor plan of the property; a new property has one, named after it.',
  })
  floor_plans: FloorPlanRepresentation[];
}

export class PropertyResponse {
  @ApiProperty()
  property: PropertyRepresentation;
}

const UNCHANGED = 'Unchanged when left out.';

/**
 * `property` inside PATCH /api/v2/properties/:id: any field of PropertyInput, each checked as on
 * create; a field left out keeps its value. A new name does not rename the floor plans.
 */
export class PropertyChanges {
  @BooleanField()
  @ApiProperty({ description: `Whether the online application form accepts applications. ${UNCHANGED}`, example: false })
  available?: boolean;

  @EnumField(PROPERTY_KINDS)
  @ApiProperty({
    description: `${UNCHANGED} single_family is refused (422) while the property has more than one floor plan.`,
    example: 'single_family',
  })
  kind?: PropertyKind;

  @StringField({ trim: true, min: 1, max: 255 })
  @ApiProperty({ description: `Property name, trimmed. ${UNCHANGED} Floor plans keep their names.`, example: 'Maple Court East' })
  name?: string;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `Street address line; null stores "". ${UNCHANGED}`, example: '14 Maple St' })
  street?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `City; null stores "". ${UNCHANGED}`, example: 'Springfield' })
  city?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `State abbreviation; null stores "". ${UNCHANGED}`, example: 'IL' })
  state?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `Postal code; null stores "". ${UNCHANGED}`, example: '62702' })
  zip?: string | null;

  @StringField({ nullable: true, trim: true, max: 255 })
  @ApiProperty({ description: `The landlord or management company; null stores "". ${UNCHANGED}`, example: 'Elm Lettings' })
  manager_name?: string | null;

  @EmailField({ nullable: true, max: 254 })
  @ApiProperty({ description: `The manager's e-mail address; null stores "". ${UNCHANGED}`, example: 'rent@elm.example' })
  manager_email?: string | null;

  @PhoneField({ nullable: true })
  @ApiProperty({ description: `The manager's phone number; null stores "". ${UNCHANGED}`, example: '217-555-0199' })
  manager_phone?: string | null;

  @BooleanField()
  @ApiProperty({ description: `Whether only invited people may apply. ${UNCHANGED}`, example: true })
  invitation_only?: boolean;

  @StringField({ nullable: true, trim: true, max: 2000 })
  @ApiProperty({
    description: `Shown to an applicant without an invitation; null stores "". ${UNCHANGED}`,
    example: 'Invitations come from the leasing office.',
  })
  invitation_only_message?: string | null;
  @IntegerField({ min: 1 })
  @ApiProperty({
    description: `One of the client’s form presets or a shipped one; anything else is a 422. ${UNCHANGED}`,
    example: 2,
  })
  form_preset_id?: number;
}

export class UpdatePropertyRequest {
  @NestedField(() => PropertyChanges, { required: true })
  property: PropertyChanges;
}

export class PropertyListResponse {
  @ApiProperty({ type: [PropertyRepresentation], description: 'At most `limit` properties, newest first.' })
  properties: PropertyRepresentation[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
    example: 'djE6MTI',
  })
  next_cursor: string | null;
}
