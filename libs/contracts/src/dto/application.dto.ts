import { ErrorCode } from '../errors';
import {
  DateField,
  EmailField,
  IntegerField,
  JsonObjectField,
  NestedField,
  PhoneField,
  SsnField,
  StringField,
  UrlField,
} from '../validation/fields';

/** Upper bounds of the integer inputs, so that no absurd number is stored or passed on. */
export const MAX_RENT = 1_000_000;
export const MAX_USER_ID = 2_147_483_647;

/** `application.applicant`: the first, primary applicant. */
export class ApplicantInput {
  @StringField({ required: true, trim: true, min: 1, max: 100 })
  first_name: string;

  @StringField({ required: true, trim: true, min: 1, max: 100 })
  last_name: string;

  @EmailField({ required: true, max: 254 })
  email: string;

  @DateField({ nullable: true, past: true })
  dob?: string | null;

  /** Stored as nine digits; never returned and never logged. */
  @SsnField({ nullable: true })
  id_number?: string | null;

  @PhoneField({ nullable: true })
  phone?: string | null;

  @JsonObjectField({ nullable: true, maxBytes: 16 * 1024, maxDepth: 10, maxEntries: 1000 })
  custom_data?: Record<string, unknown> | null;

  @StringField({ nullable: true, max: 255 })
  reference_id?: string | null;

  @UrlField({ nullable: true, max: 2000 })
  redirect_url?: string | null;
}

/** `application` inside POST /api/v2/applications. */
export class ApplicationInput {
  // Any problem with property_id answers with the documented message, as an unknown id does.
  @IntegerField({ required: true, min: 1, code: ErrorCode.PROPERTY_ID_INVALID })
  property_id: number;

  /** A monthly rent in whole currency units. */
  @IntegerField({ nullable: true, min: 0, max: MAX_RENT })
  user_specified_rent?: number | null;

  @DateField({ nullable: true })
  desired_move_in?: string | null;

  @IntegerField({ nullable: true, min: 1, max: MAX_USER_ID })
  assigned_user_id?: number | null;

  @NestedField(() => ApplicantInput, { required: true })
  applicant: ApplicantInput;
}

export class CreateApplicationRequest {
  @NestedField(() => ApplicationInput, { required: true })
  application: ApplicationInput;
}

export interface ApplicantSummary {
  id: number;
  type: 'primary';
  name: string;
  api_url: string;
}

export interface ApplicationRepresentation {
  id: number;
  property_id: number;
  client_id: number;
  assigned_user_id: number | null;
  floor_plan_id: number | null;
  desired_unit_description: string | null;
  desired_lease_length: unknown;
  desired_unit_number: unknown;
  user_specified_rent: number | null;
  desired_move_in: string | null;
  showing_agent: unknown;
  showing_agent_id: number | null;
  referral: unknown;
  archived: unknown;
  created_at: string;
  updated_at: string;
  property: { id: number; name: string };
  applicants: ApplicantSummary[];
}

export interface ApplicationResponse {
  application: ApplicationRepresentation;
}
