import { FieldProblem } from '../errors';
import { FormPreset, MAX_FORM_ANSWER } from '../form-presets';
import { DateField, EmailField, IntegerField, PhoneField, SsnField, StringField } from '../validation/fields';

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

/** A co-applicant the primary applicant names on the last step. */
export class FormCoApplicantInput {
  @StringField({ required: true, trim: true, min: 1, max: 100 })
  first_name: string;

  @StringField({ required: true, trim: true, min: 1, max: 100 })
  last_name: string;

  @EmailField({ required: true, max: 254 })
  email: string;
}

/** Step 3's sensitive part: sealed by the form before it travels, as the gateway seals the API's. */
export class FormIdentityInput {
  @DateField({ required: true, past: true })
  dob: string;

  @SsnField({ required: true })
  id_number: string;
}

/** Step 3's other part. */
export class FormCompletionInput {
  @StringField({ required: true, trim: true, min: 1, max: 200 })
  signature: string;
}

/** Co-applicants one applicant may name on the form. */
export const MAX_FORM_CO_APPLICANTS = 3;

/**
 * The problems with step 3's answers for `preset`: a required question unanswered, a yes/no
 * question answered otherwise, an answer too long, and consent to the disclosures not given.
 */
export function formAnswerProblems(preset: FormPreset, answers: Record<string, string>, consent: boolean): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const question of preset.questions) {
    const answer = answers[question.id] ?? '';
    const field = `answers.${question.id}`;
    if (answer === '') {
      if (question.required) problems.push({ field, message: 'must be answered' });
    } else if (question.kind === 'yes_no' && answer !== 'yes' && answer !== 'no') {
      problems.push({ field, message: 'must be yes or no' });
    } else if (answer.length > MAX_FORM_ANSWER) {
      problems.push({ field, message: `must be at most ${MAX_FORM_ANSWER} characters` });
    }
  }
  if (!consent) problems.push({ field: 'consent', message: 'must be given to apply' });
  return problems;
}

/** The answers to `preset`'s questions only, empty ones left out. */
export function presetAnswers(preset: FormPreset, answers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(preset.questions.filter((q) => answers[q.id]).map((q) => [q.id, answers[q.id].trim()]));
}
