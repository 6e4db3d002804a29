import { ApplicantRepresentation, ApplicationRepresentation, ConsentRecord, formatTimestamp } from '@app/contracts';
import { ApplicantRecord, ApplicationRecord, StoredConsent } from './application.schema';

/**
 * The public representation: every documented field in the documented order, nulls for what
 * creation leaves unset. Applicants appear only as summaries: no SSN, date of birth or contact
 * detail is ever part of it.
 */
export function toApplicationRepresentation(record: ApplicationRecord, publicBaseUrl: string): ApplicationRepresentation {
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
    created_at: formatTimestamp(record.created_at),
    updated_at: formatTimestamp(record.updated_at),
    property: { id: record.property_id, name: record.property_name },
    applicants: record.applicants.map((applicant) => ({
      id: applicant.id,
      type: applicant.type,
      name: `${applicant.first_name} ${applicant.last_name}`,
      api_url: applicantUrl(publicBaseUrl, record.id, applicant.id),
    })),
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
    form_answers: applicant.form_answers ? (JSON.parse(applicant.form_answers) as Record<string, string>) : null,
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
