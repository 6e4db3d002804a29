import { DateField, EmailField, IntegerField, PhoneField, StringField } from '../validation/fields';

/**
 * What the online application form asks, step by step, validated with the same field rules as
 * the API's applicant (libs/contracts/validation), so that the form accepts nothing the API
 * would refuse and the other way round.
 */

/** Step 1: name and contact details. */
export class FormContactInput {
  @StringField({ required: true, trim: true, min: 1, max: 100 })
  first_name: string;

  @StringField({ required: true, trim: true, min: 1, max: 100 })
  last_name: string;

  @EmailField({ required: true, max: 254 })
  email: string;

  @PhoneField({ nullable: true })
  phone?: string | null;
}

/** Step 2: what the property's kind asks, and the desired move-in. */
export class FormDetailsInput {
  /** multi_family only: one of the property's floor plans. */
  @IntegerField({ nullable: true, min: 1 })
  floor_plan_id?: number | null;

  /** multi_family: the desired unit; generic: the desired property. */
  @StringField({ nullable: true, trim: true, max: 2000 })
  desired_unit_description?: string | null;

  @DateField({ nullable: true })
  desired_move_in?: string | null;
}

/** The last step's signature: the applicant's typed full name. */
export class FormCompletionInput {
  @StringField({ required: true, trim: true, min: 1, max: 200 })
  signature: string;
}
