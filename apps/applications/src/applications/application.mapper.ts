import { ApplicationRepresentation, formatTimestamp } from '@app/contracts';
import { ApplicationRecord } from './application.schema';

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
    floor_plan_id: null,
    desired_unit_description: null,
    desired_lease_length: null,
    desired_unit_number: null,
    user_specified_rent: record.user_specified_rent ?? null,
    desired_move_in: record.desired_move_in ?? null,
    showing_agent: null,
    showing_agent_id: null,
    referral: null,
    archived: null,
    created_at: formatTimestamp(record.created_at),
    updated_at: formatTimestamp(record.updated_at),
    property: { id: record.property_id, name: record.property_name },
    applicants: record.applicants.map((applicant) => ({
      id: applicant.id,
      type: applicant.type,
      name: `${applicant.first_name} ${applicant.last_name}`,
      api_url: `${publicBaseUrl}/api/v2/applications/${record.id}/applicants/${applicant.id}`,
    })),
  };
}
