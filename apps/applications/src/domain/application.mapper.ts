import {
  ApplicantIdentity,
  ApplicantRepresentation,
  ApplicationRepresentation,
  ApplicationStatus,
  ConsentRecord,
  DecisionRepresentation,
  EmergencyContactInput,
  EmploymentSectionInput,
  formatTimestamp,
  HouseholdSectionInput,
  ResidenceHistoryInput,
} from '@app/contracts';
import { ApplicantRecord, ApplicationRecord, StoredConsent, StoredDecision } from './application';
import { IncomeFigures, incomeFigures, judgedRent } from './income-to-rent';

/**
 * The public representation: every documented field in the documented order, nulls for what
 * creation leaves unset. Applicants appear only as summaries: no SSN, date of birth or contact
 * detail is ever part of it. `primaryCompleted` says whether the primary applicant completed the
 * form, and `figures` what the applicants stated of their income against which rent: the form's
 * records and the property's floor plans hold those, not the application, so the caller reads them
 * (left out, the figures are those of the application alone: its user_specified_rent, no income).
 */
export function toApplicationRepresentation(
  record: ApplicationRecord,
  publicBaseUrl: string,
  primaryCompleted: boolean,
  figures: IncomeFigures = incomeFigures(record.applicants, judgedRent(null, record.user_specified_rent)),
): ApplicationRepresentation {
  return {
    id: record.id,
    property_id: record.property_id,
    client_id: record.client_id,
    assigned_user_id: record.assigned_user_id ?? null,
    floor_plan_id: record.floor_plan_id ?? null,
    desired_unit_description: record.desired_unit_description ?? null,
    desired_lease_length: record.desired_lease_length ?? null,
    desired_unit_number: record.desired_unit_number ?? null,
    user_specified_rent: record.user_specified_rent ?? null,
    desired_move_in: record.desired_move_in ?? null,
    showing_agent: record.showing_agent ?? null,
    showing_agent_id: record.showing_agent_id ?? null,
    referral: record.referral ?? null,
    archived: record.archived_at ? formatTimestamp(record.archived_at) : null,
    status: applicationStatus(record, primaryCompleted),
    rent: figures.rent,
    household_monthly_income: figures.household_monthly_income,
    income_to_rent: figures.income_to_rent,
    personal_data_erased_at: record.personal_data_erased_at ? formatTimestamp(record.personal_data_erased_at) : null,
    created_at: formatTimestamp(record.created_at),
    updated_at: formatTimestamp(record.updated_at),
    property: { id: record.property_id, name: record.property_name },
    applicants: record.applicants.map((applicant) => ({
      id: applicant.id,
      type: applicant.type,
      name: `${applicant.first_name} ${applicant.last_name}`,
      api_url: applicantUrl(publicBaseUrl, record.id, applicant.id),
      monthly_income: figures.applicants.get(applicant.id)?.monthly_income ?? null,
      income_to_rent: figures.applicants.get(applicant.id)?.income_to_rent ?? null,
    })),
  };
}

/** The application's status: its current decision's, else submitted once the primary applicant completed the form, else draft. */
export function applicationStatus(record: ApplicationRecord, primaryCompleted: boolean): ApplicationStatus {
  const decision = record.decisions?.[0];
  if (decision) return decision.status;
  return primaryCompleted ? 'submitted' : 'draft';
}

/** A stored decision as the API shows it: every field, in order, the time formatted. */
export function toDecisionRepresentation(decision: StoredDecision): DecisionRepresentation {
  return {
    status: decision.status,
    conditions: decision.conditions.map(({ kind, amount, text }) => ({ kind, amount: amount ?? null, text: text ?? null })),
    reasons: [...decision.reasons],
    note: decision.note ?? null,
    decided_by: decision.decided_by ?? null,
    key_id: decision.key_id ?? null,
    decided_at: formatTimestamp(decision.decided_at),
  };
}

/**
 * An applicant's own record, every documented field in order. Its dob and id_number are never
 * read here; form_url is worked out by the caller, which alone can open the sealed token.
 */
export function toApplicantRepresentation(
  application: ApplicationRecord,
  applicant: ApplicantRecord,
  publicBaseUrl: string,
  formUrl: string | null,
): ApplicantRepresentation {
  return {
    id: applicant.id,
    application_id: application.id,
    type: applicant.type,
    first_name: applicant.first_name,
    last_name: applicant.last_name,
    name: `${applicant.first_name} ${applicant.last_name}`,
    email: applicant.email,
    phone: applicant.phone ?? null,
    reference_id: applicant.reference_id ?? null,
    redirect_url: applicant.redirect_url ?? null,
    custom_data: applicant.custom_data ? (JSON.parse(applicant.custom_data) as Record<string, unknown>) : null,
    form_url: formUrl,
    form_status: applicant.form_status ?? 'not_started',
    form_started_at: applicant.form_started_at ? formatTimestamp(applicant.form_started_at) : null,
    form_completed_at: applicant.form_completed_at ? formatTimestamp(applicant.form_completed_at) : null,
    withdrawn_at: applicant.withdrawn_at ? formatTimestamp(applicant.withdrawn_at) : null,
    form_answers: applicant.form_answers ? (JSON.parse(applicant.form_answers) as Record<string, string>) : null,
    ...formSections(applicant),
    consent: applicant.consent ? toConsentRecord(applicant.consent) : null,
    created_at: formatTimestamp(applicant.created_at ?? application.created_at),
    updated_at: formatTimestamp(applicant.updated_at ?? applicant.created_at ?? application.created_at),
    api_url: applicantUrl(publicBaseUrl, application.id, applicant.id),
  };
}

/** A stored consent as the API shows it: field order fixed, the time formatted. */
export function toConsentRecord(consent: StoredConsent): ConsentRecord {
  return {
    signed_name: consent.signed_name,
    signed_at: formatTimestamp(consent.signed_at),
    ip_address: consent.ip_address,
    user_agent: consent.user_agent,
    form_preset_id: consent.form_preset_id,
    form_preset_version: consent.form_preset_version,
    disclosures: consent.disclosures.map(({ id, title, text }) => ({ id, title, text })),
  };
}

function applicantUrl(publicBaseUrl: string, applicationId: number, applicantId: number): string {
  return `${publicBaseUrl}/api/v2/applications/${applicationId}/applicants/${applicantId}`;
}

type SectionFields = Pick<
  ApplicantRepresentation,
  'identity' | 'residences' | 'employment' | 'other_income' | 'household' | 'emergency_contact'
>;

/** The form's saved sections as the applicant's named fields, null for those not saved; no sealed value is among them. */
function formSections(applicant: ApplicantRecord): SectionFields {
  const saved = applicant.form_sections ?? {};
  const read = <T>(kind: string): T | null => (saved[kind] ? (JSON.parse(saved[kind]) as T) : null);
  const identity = read<Partial<ApplicantIdentity>>('identity');
  const residences = read<ResidenceHistoryInput>('residence_history');
  const employment = read<EmploymentSectionInput>('employment');
  const household = read<HouseholdSectionInput>('household');
  const emergency = read<EmergencyContactInput>('emergency_contact');
  return {
    identity: identity ? every(identity, { middle_name: null, drivers_license_state: null }) : null,
    residences: residences ? residences.residences.map((entry) => every(entry, RESIDENCE)) : null,
    employment: employment ? employment.employment.map((entry) => every(entry, { employer: null, position: null })) : null,
    other_income: employment?.other_income ?? null,
    household: household
      ? {
          adults: household.adults,
          minors: household.minors,
          pets: household.pets.map((pet) => every(pet, { kind: null, description: null })),
          vehicles: household.vehicles.map((vehicle) => every(vehicle, { make_model: null, plate: null })),
          guarantors: household.guarantors,
        }
      : null,
    emergency_contact: emergency ? every(emergency, { name: null, relationship: null, phone: null, email: null }) : null,
  };
}

/** An address's fields, in their documented order. */
const RESIDENCE = {
  address: null,
  from: null,
  to: null,
  monthly_rent: null,
  landlord_name: null,
  landlord_phone: null,
  reason_for_leaving: null,
};

/** `saved` with every field of `fields` present, in that order: null when it was not given, as everywhere in the API. */
function every<T extends object, D extends object>(saved: T, fields: D): T & D {
  return { ...fields, ...saved };
}
