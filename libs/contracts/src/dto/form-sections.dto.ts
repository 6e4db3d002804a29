import { ApiProperty } from '@nestjs/swagger';
import {
  DateField,
  EmailField,
  EnumField,
  IntegerField,
  NestedListField,
  NumberField,
  PhoneField,
  SsnField,
  StringField,
} from '../validation/fields';

/**
 * What each section of the online form stores (FormSection kinds), validated with the same
 * classes by the form that sends a step and the applications service that keeps it. The
 * applicant's record returns them as named fields; the identity numbers only as sensitive data.
 */

/** The two-letter codes of the states, districts and territories that issue driver's licenses. */
export const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'VI',
] as const; // prettier-ignore

/** Largest monthly amount the form takes, in dollars: a typo guard, not a judgement. */
export const MAX_MONTHLY_AMOUNT = 10_000_000;
/** Most entries of any one repeated list (addresses, jobs, pets...). */
export const MAX_SECTION_ENTRIES = 10;
/** Most people a primary applicant lists as adults or guarantors: each gets a form link. */
export const MAX_FORM_PEOPLE = 3;

const money = (required: boolean) => NumberField({ required, nullable: !required, min: 0, max: MAX_MONTHLY_AMOUNT });
const text = (max: number, required = false) =>
  StringField({ required, nullable: !required, trim: true, min: required ? 1 : 0, max });

/** The identity step as the applicant types it: dob, id_number and the license number travel sealed. */
export class IdentitySectionInput {
  @text(100)
  middle_name?: string | null;

  @DateField({ required: true, past: true })
  dob: string;

  @SsnField({ required: true })
  id_number: string;

  @EnumField(US_STATE_CODES, { nullable: true })
  drivers_license_state?: string | null;

  @text(30)
  drivers_license_number?: string | null;
}

/** What the applicant's record shows of identity to every key: the numbers are sensitive data. */
export class ApplicantIdentity {
  @ApiProperty({ type: 'string', nullable: true, example: 'Byron' })
  middle_name: string | null;

  @ApiProperty({ type: 'string', nullable: true, enum: US_STATE_CODES, example: 'NY' })
  drivers_license_state: string | null;
}

export class ResidenceEntry {
  @text(500, true)
  @ApiProperty({ example: '12 Elm Street, Springfield, IL 62701' })
  address: string;

  @DateField({ required: true, past: true })
  @ApiProperty({ description: 'Moved in (YYYY-MM-DD).', example: '2021-06-01' })
  from: string;

  @DateField({ nullable: true })
  @ApiProperty({ description: 'Moved out; null for the current address.', example: null })
  to?: string | null;

  @money(false)
  @ApiProperty({ description: 'Dollars a month.', example: 1450 })
  monthly_rent?: number | null;

  @text(200)
  @ApiProperty({ type: 'string', nullable: true, example: 'Jane Doe' })
  landlord_name?: string | null;

  @PhoneField({ nullable: true })
  @ApiProperty({ type: 'string', nullable: true, description: 'The digits only.', example: '5550102222' })
  landlord_phone?: string | null;

  @text(500)
  @ApiProperty({ type: 'string', nullable: true, example: 'Needed more room' })
  reason_for_leaving?: string | null;
}

export class ResidenceHistoryInput {
  @NestedListField(() => ResidenceEntry, { required: true, max: MAX_SECTION_ENTRIES })
  residences: ResidenceEntry[];
}

export class EmploymentEntry {
  @text(200, true)
  @ApiProperty({ example: 'Analytical Engines Ltd' })
  employer: string;

  @text(200)
  @ApiProperty({ type: 'string', nullable: true, example: 'Engineer' })
  position?: string | null;

  @DateField({ required: true, past: true })
  @ApiProperty({ example: '2020-02-01' })
  start_date: string;

  @money(true)
  @ApiProperty({ description: 'Gross dollars a month.', example: 5200 })
  monthly_income: number;
}

export class OtherIncomeEntry {
  @text(200, true)
  @ApiProperty({ example: 'Child support' })
  source: string;

  @money(true)
  @ApiProperty({ description: 'Dollars a month.', example: 400 })
  monthly_amount: number;
}

export class EmploymentSectionInput {
  @NestedListField(() => EmploymentEntry, { required: true, max: MAX_SECTION_ENTRIES })
  employment: EmploymentEntry[];

  @NestedListField(() => OtherIncomeEntry, { required: true, max: MAX_SECTION_ENTRIES })
  other_income: OtherIncomeEntry[];
}

/** An adult who will live there, or a guarantor: each becomes an applicant with a form link of its own. */
export class HouseholdPerson {
  @text(100, true)
  @ApiProperty({ example: 'Charles' })
  first_name: string;

  @text(100, true)
  @ApiProperty({ example: 'Babbage' })
  last_name: string;

  @EmailField({ required: true, max: 254 })
  @ApiProperty({ example: 'charles@example.com' })
  email: string;
}

/** A child who will live there: an occupant, who fills in no form. */
export class HouseholdMinor {
  @text(200, true)
  @ApiProperty({ example: 'Sam Lovelace' })
  name: string;

  @IntegerField({ required: true, min: 0, max: 17 })
  @ApiProperty({ example: 7 })
  age: number;
}

export class HouseholdPet {
  @text(100, true)
  @ApiProperty({ example: 'Dog' })
  kind: string;

  @text(200)
  @ApiProperty({ type: 'string', nullable: true, description: 'Breed, size, weight.', example: 'Beagle, 10 kg' })
  description?: string | null;
}

export class HouseholdVehicle {
  @text(200, true)
  @ApiProperty({ example: 'Toyota Corolla' })
  make_model: string;

  @text(20)
  @ApiProperty({ type: 'string', nullable: true, example: 'ABC 1234' })
  plate?: string | null;
}

export class HouseholdSectionInput {
  @NestedListField(() => HouseholdPerson, { required: true, max: MAX_FORM_PEOPLE })
  @ApiProperty({ description: 'Other adults who will live there; each became a co-applicant.' })
  adults: HouseholdPerson[];

  @NestedListField(() => HouseholdMinor, { required: true, max: MAX_SECTION_ENTRIES })
  minors: HouseholdMinor[];

  @NestedListField(() => HouseholdPet, { required: true, max: MAX_SECTION_ENTRIES })
  pets: HouseholdPet[];

  @NestedListField(() => HouseholdVehicle, { required: true, max: MAX_SECTION_ENTRIES })
  vehicles: HouseholdVehicle[];

  @NestedListField(() => HouseholdPerson, { required: true, max: MAX_FORM_PEOPLE })
  @ApiProperty({ description: 'People who guarantee the rent without living there; each became a guarantor.' })
  guarantors: HouseholdPerson[];
}

export class EmergencyContactInput {
  @text(200, true)
  @ApiProperty({ example: 'Mary Somerville' })
  name: string;

  @text(100)
  @ApiProperty({ type: 'string', nullable: true, example: 'Aunt' })
  relationship?: string | null;

  @PhoneField({ required: true })
  @ApiProperty({ example: '5550109876' })
  phone: string;

  @EmailField({ nullable: true, max: 254 })
  @ApiProperty({ type: 'string', nullable: true, example: 'mary@example.com' })
  email?: string | null;
}

/** Each section kind the applications service stores, and the class that validates it. */
export const SECTION_INPUTS = {
  identity: IdentitySectionInput,
  residence_history: ResidenceHistoryInput,
  employment: EmploymentSectionInput,
  household: HouseholdSectionInput,
  emergency_contact: EmergencyContactInput,
} as const;
export type StoredSectionKind = keyof typeof SECTION_INPUTS | 'questions';

/** The identity fields that are sealed in transit and at rest, and returned only as sensitive data. */
export const SEALED_IDENTITY_FIELDS = ['dob', 'id_number', 'drivers_license_number'] as const;
