import { FormConsent } from './dto/consent.dto';
import { FormContactInput, FormDetailsInput } from './dto/application-form.dto';
import { FormPreset, FormSectionKind } from './form-presets';
import { AddedApplicantType, FormStatus } from './dto/applicant.dto';
import { ApplicantType } from './dto/application.dto';
import { PropertyRepresentation } from './dto/property.dto';
import { FormSealedApplicantFields, FormSealedValue } from './messages';

/**
 * PROPERTIES.FORM_GET: a property by id, whoever owns it. With `form_preset` (the version an
 * application is filled with, or null for the property's current preset) the answer carries that
 * preset too, so that a form page asks the properties service once.
 */
export interface FormPropertyMessage {
  id: number;
  form_preset?: FormPresetVersionRef | null;
}

/**
 * The answer to PROPERTIES.FORM_GET for a live property: null for an unknown id, the error
 * PROPERTY_DELETED for a deleted one.
 */
export interface FormProperty {
  client_id: number;
  property: PropertyRepresentation;
  /**
   * Present when the message named `form_preset`: that preset as the property's client sees it,
   * or null when it names none the client has (the form then uses the shipped preset of that id).
   * A properties service of the previous release leaves it out; the form then asks for the preset.
   */
  preset?: FormPreset | null;
}

/**
 * Every write the form asks for carries the nonce of the CSRF token its page held: the service
 * takes each nonce once, so a page submitted again (a replayed token) changes nothing.
 */
export interface FormSubmission {
  submission: string;
}

/** The `details` field of the refusal of a nonce already used. */
export const FORM_SUBMISSION_FIELD = 'csrf_token';

/** APPLICATION_FORMS.START: step 1 at a property of `client_id`'s. */
export interface StartFormMessage extends FormSubmission {
  client_id: number;
  property_id: number;
  request: FormContactInput;
  /** The preset version the contact page was shown under: the one the new application is filled with. */
  form_preset?: FormPresetVersionRef;
}

/**
 * A preset version an application is filled with. Recorded once per application, the first time
 * the form resolves one for it, so a preset changed afterwards never changes the questions and
 * steps of an application already being filled in (nor of its co-applicants).
 */
export interface FormPresetVersionRef {
  id: number;
  version: number;
}

/**
 * Names an applicant by the SHA-256 digest of its form token (base64url): the token itself, a
 * link that lets anyone fill in the form, never travels over the broker.
 */
export interface FormTokenMessage {
  token_digest: string;
  /**
   * The application the token names, read from the token by the form (absent for a token issued
   * before tokens named it): where the service looks for the applicant, by key. No secret.
   */
  application_id?: number;
}

export interface SaveContactMessage extends FormTokenMessage, FormSubmission {
  request: FormContactInput;
}

export interface SaveDetailsMessage extends FormTokenMessage, FormSubmission {
  request: FormDetailsInput;
}

/**
 * One section step, as its class in form-sections.dto validates it (`questions`: the answers
 * by question id, checked against the preset by the form). The identity step's dob, id_number
 * and drivers_license_number travel in `sealed_applicant`, sealed to the applications service's
 * public key (FORM_SEALING_KEYS), which the form holds no private key of.
 */
/** What the applications service answers, as a VALIDATION_FAILED error, to a form message it cannot read. */
export const MALFORMED_FORM_MESSAGE = 'malformed application form message';

export interface SaveSectionMessage extends FormTokenMessage, FormSubmission {
  kind: Exclude<FormSectionKind, 'documents'>;
  /**
   * In clear: from a form of a release before sections were sealed, or sent again so by this
   * release's form when a service of that release refused `sealed_section` alone. Absent beside
   * `sealed_section`, which a service of that release refuses (MALFORMED_FORM_MESSAGE) rather than
   * store an empty section.
   */
  section?: Record<string, unknown>;
  /** The section's value as JSON, sealed to the form sealing key for this link and message. */
  sealed_section?: FormSealedValue;
  sealed_applicant?: FormSealedApplicantFields;
}

/**
 * APPLICATION_FORMS.RECORD_PRESET: the preset version the form resolved for the applicant's
 * application, kept only when none is recorded yet; the answer shows the one that is.
 */
export interface RecordFormPresetMessage extends FormTokenMessage {
  form_preset: FormPresetVersionRef;
}

/** The last step: the saved sections are what is completed; consent and signature are given here. */
export interface CompleteFormMessage extends FormTokenMessage, FormSubmission {
  signature: string;
  /** What the applicant was shown and signed, and from where. */
  consent: FormConsent;
}

/**
 * APPLICATION_FORMS.WITHDRAW: the applicant confirmed its withdrawal: the primary applicant's withdraws
 * the application, a co-applicant's or guarantor's only its own part in it.
 */
export type WithdrawFormMessage = FormTokenMessage & FormSubmission;

/** What the form shows of an applicant and its application; never its dob or SSN. */
export interface FormApplicant {
  client_id: number;
  application_id: number;
  property_id: number;
  applicant_id: number;
  type: ApplicantType;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  redirect_url: string | null;
  form_status: FormStatus;
  form_answers: Record<string, string> | null;
  /** The sections saved so far, by kind, as the applicant record shows them (no sealed field). */
  form_sections: Record<string, unknown>;
  /** The steps saved so far (`details` and the section kinds), for resuming at the first one not yet done. */
  form_steps: string[];
  floor_plan_id: number | null;
  desired_unit_description: string | null;
  desired_move_in: string | null;
  /** The preset version the application is filled with; null until the form first resolves one. */
  form_preset: FormPresetVersionRef | null;
  /**
   * For a co-applicant or guarantor: whose application it joins, and whether that applicant listed
   * it on their own form (otherwise the property manager added it). Null for the primary applicant.
   */
  joining: FormJoining | null;
  /** For the primary applicant: the people its form listed, as added to the application, in order. */
  added: FormAddedPerson[];
  /** Whether the application is withdrawn (its current decision); absent from a service of the previous release. */
  withdrawn?: boolean;
  /**
   * For a co-applicant or guarantor: whether it withdrew from the application itself (its own
   * withdraw page), which goes on without it. Absent from a service of the previous release.
   */
  applicant_withdrawn?: boolean;
  /** Only in the answer to START: the token of the new applicant's form_url. */
  token?: string;
}

/** Whose application a co-applicant or guarantor joins (FormApplicant.joining). */
export interface FormJoining {
  /** The primary applicant's first and last name. */
  primary_name: string;
  /** True when the primary applicant listed this one on their form. */
  listed_by_primary: boolean;
}

/** One of the people an applicant's form listed, as added to the application. */
export interface FormAddedPerson {
  name: string;
  type: AddedApplicantType;
}

/** INVITATIONS.CHECK, USE and RELEASE: an invitation named by its token's digest, for one property. */
export interface InvitationTokenMessage {
  property_id: number;
  token_digest: string;
  /**
   * USE and RELEASE: who uses it (the form page's submission nonce), so that a release undoes
   * that use only, never another submission's.
   */
  use_id?: string;
}

/** The answer to INVITATIONS.CHECK for a usable invitation (null otherwise). */
export interface UsableInvitation {
  email: string;
}
