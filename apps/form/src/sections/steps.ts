import { ApplicantType, FormPreset, FormSectionKind } from '@app/contracts';
import { EmergencyContactSection } from './emergency-contact.section';
import { EmploymentSection } from './employment.section';
import { HouseholdSection } from './household.section';
import { IdentitySection } from './identity.section';
import { QuestionsSection } from './questions.section';
import { ResidenceHistorySection } from './residence-history.section';
import { SectionModule } from './section';

/** The module of each section kind the form asks itself (documents are uploaded on a page of their own). */
export const SECTIONS: Readonly<Record<Exclude<FormSectionKind, 'documents'>, SectionModule<object>>> = {
  identity: new IdentitySection(),
  residence_history: new ResidenceHistorySection(),
  employment: new EmploymentSection(),
  household: new HouseholdSection(),
  emergency_contact: new EmergencyContactSection(),
  questions: new QuestionsSection(),
};
export type SectionStep = keyof typeof SECTIONS;

/** A step of the form, by the last segment of its path; `contact` is the form_url itself. */
export type Step = 'contact' | 'details' | SectionStep | 'documents' | 'review' | 'finish';

/**
 * What each type of applicant is asked. A guarantor does not live there: identity, residence
 * and income only, never the unit, the household or the preset's questions. A co-applicant is
 * listed in the primary's household, so is not asked for one.
 */
const ASKED: Record<ApplicantType, ReadonlySet<SectionStep>> = {
  primary: new Set(Object.keys(SECTIONS) as SectionStep[]),
  co_applicant: new Set<SectionStep>(['identity', 'residence_history', 'employment', 'emergency_contact', 'questions']),
  guarantor: new Set<SectionStep>(['identity', 'residence_history', 'employment']),
};

/**
 * The steps of the form for `type` under `preset`, in order: contact details, the unit (primary
 * only), the preset's sections that apply, a review of the answers, and the signature. Identity
 * is always asked (the date of birth and SSN a screening needs), first when the preset does not
 * place it; the preset's questions are asked last when it has some and does not place them.
 */
export function formSteps(preset: FormPreset, type: ApplicantType): Step[] {
  const kinds = preset.sections
    .map((section) => section.kind)
    .filter((kind): kind is SectionStep | 'documents' => kind in SECTIONS || kind === 'documents');
  if (!kinds.includes('identity')) kinds.unshift('identity');
  if (preset.questions.length > 0 && !kinds.includes('questions')) kinds.push('questions');
  // Every applicant uploads its own documents, on their page where the preset places it (last when
  // it asks for documents without placing the page); a preset that asks for none has no such page.
  if (preset.documents.length > 0 && !kinds.includes('documents')) kinds.push('documents');
  const sections = [...new Set(kinds)].filter((kind) =>
    kind === 'documents' ? preset.documents.length > 0 : ASKED[type].has(kind),
  );
  return ['contact', ...(type === 'primary' ? (['details'] as const) : []), ...sections, 'review', 'finish'];
}

/** Whether `step` is a section step. */
export function isSectionStep(step: string): step is SectionStep {
  return Object.prototype.hasOwnProperty.call(SECTIONS, step);
}

/** The step after `step`. */
export function nextStep(steps: Step[], step: Step): Step {
  return steps[Math.min(steps.indexOf(step) + 1, steps.length - 1)];
}

/** The step before `step`. */
export function previousStep(steps: Step[], step: Step): Step {
  return steps[Math.max(steps.indexOf(step) - 1, 0)];
}

/**
 * Where a returning applicant resumes: the first step not saved yet (contact once the form is
 * started counts as saved; `documents` once every required document is uploaded, which the
 * caller knows), the review once every one is.
 */
export function resumeStep(steps: Step[], saved: readonly string[], started: boolean): Step {
  const done = new Set<string>([...saved, ...(started ? ['contact'] : [])]);
  return steps.find((step) => step !== 'review' && step !== 'finish' && !done.has(step)) ?? 'review';
}
