import {
  ApplicantType,
  DecisionConditionKind,
  DecisionStatus,
  DeclineReason,
  FormConsent,
  FormStatus,
  SealedValue,
} from '@app/contracts';

/** A decision as stored, in the application's `decisions`: newest first, each kept when another replaces it. */
export interface StoredDecision {
  status: DecisionStatus;
  conditions: Array<{ kind: DecisionConditionKind; amount: number | null; text: string | null }>;
  reasons: DeclineReason[];
  note: string | null;
  decided_by: number | null;
  /** The API key's id (see RecordDecisionMessage); null for an applicant's own withdrawal. */
  key_id: string | null;
  decided_at: Date;
  /** The request that recorded it, so that a request done twice records it once; never returned. */
  request_key?: string;
}

/** A ConsentRecord as stored: written once, by the completion, and never changed. */
export interface StoredConsent extends FormConsent {
  signed_name: string;
  signed_at: Date;
}

// Applicants live inside their application, so that creating both is one atomic insert.
// Co-applicants are added as the application's next versions (see ApplicationsRepository).
export interface ApplicantRecord {
  id: number;
  type: ApplicantType;
  first_name: string;
  last_name: string;
  email: string;

  /** YYYY-MM-DD, sealed. Never part of a response or a log line. */
  dob: SealedValue | null;

  /** Nine digits, sealed. Never part of a response or a log line. */
  id_number: SealedValue | null;
  phone: string | null;

  /** The caller's JSON object, kept as text: its keys are the caller's and never reach a query. */
  custom_data: string | null;
  reference_id: string | null;
  redirect_url: string | null;

  /**
   * The token of the applicant's form_url, sealed: the URL is shown again on every read, so the
   * token is kept, but never in clear. Null for applicants created before form links existed.
   */
  form_token?: SealedValue | null;

  /** SHA-256 of the token (base64url): what the form looks an applicant up by. */
  form_token_digest?: string | null;

  /**
   * The `traceparent` of the operation that issued the form link, when it was traced: each of
   * the applicant's form steps, a trace of its own, links to it. Absent otherwise.
   */
  form_trace?: string;
  form_status?: FormStatus;
  form_started_at?: Date | null;
  form_completed_at?: Date | null;

  /** The answers to the form preset's questions, as JSON text (kept in ApplicantForms). */
  form_answers?: string | null;

  /** The consent signed on completing the form: kept in ApplicantForms only, never in this document. */
  consent?: StoredConsent | null;
  // The form's sections are kept in ApplicantForms only: these are set as the form left them
  // (withFormProgress), never stored in the application document.
  /** The form's saved sections, by kind, each as JSON text; no sealed field is among them. */
  form_sections?: Record<string, string> | null;

  /** The form's steps saved so far. */
  form_steps?: string[];

  /** Sealed, as dob and id_number. Never part of a response or a log line. */
  drivers_license_number?: SealedValue | null;

  /** Absent on applicants stored before applicants had their own: the application's apply. */
  created_at?: Date;
  updated_at?: Date;

  /** A co-applicant's: the request that added it, so a request done twice adds it once. */
  request_key?: string;

  /** A co-applicant's: its invitation is e-mailed (the caller's send_email; always for one named on the form). */
  send_email?: boolean;

  /**
   * A co-applicant's or guarantor's: when it withdrew from the application on its own withdraw
   * page; absent while it has not. The primary applicant's withdrawal is the application's decision.
   */
  withdrawn_at?: Date | null;

  /**
   * When its personal data was erased (see erasedApplicant): set on every copy of it once the
   * application's is, so that a form record written again meanwhile is read without it.
   */
  personal_data_erased_at?: Date;
}

export interface ApplicationRecord {
  id: number;
  client_id: number;
  property_id: number;

  /** The property's name when the application was made. */
  property_name: string;
  assigned_user_id: number | null;
  user_specified_rent: number | null;
  desired_move_in: string | null;

  /** Chosen on the online form, for a multi_family property. */
  floor_plan_id?: number | null;

  /** The desired unit (multi_family) or property (generic), from the online form. */
  desired_unit_description?: string | null;

  /** The fields below are set only by a PATCH (see ApplicationChanges), each null until then. */
  desired_lease_length?: number | null;
  desired_unit_number?: string | null;
  showing_agent?: string | null;
  showing_agent_id?: number | null;
  referral?: string | null;

  /** When it was archived; null while it is not. Returned as `archived`. */
  archived_at?: Date | null;

  /**
   * Every decision recorded, newest first (the first is the current one); absent until the first.
   * Set through ApplicationVersions as a PATCH's fields are.
   */
  decisions?: StoredDecision[];
  applicants: ApplicantRecord[];

  /**
   * When its applicants' personal data was erased (PersonalDataErasure); absent while it is not.
   * Set through ApplicationVersions as a PATCH's fields are.
   */
  personal_data_erased_at?: Date;

  /**
   * How many changes were made (co-applicants added, PATCHes): the number of the last change
   * claimed in `application_versions` that this document shows (absent means 0).
   */
  version?: number;
  created_at: Date;
  updated_at: Date;

  /** Names the request that created it, so a request done twice stores it once. */
  request_key: string;

  /** The domain events its creation recorded (see EventOutbox); never returned. */
  event_ids?: string[];
}
