import { EventDataOf } from '@app/contracts';
import { ApplicantRecord } from './application';

/** What an event about an applicant says: the ids that apply, and the integrator's reference. */
export function applicantEventData(
  applicationId: number,
  propertyId: number,
  applicant: ApplicantRecord,
): EventDataOf<'applicant.created'> {
  return {
    applicant_id: applicant.id,
    application_id: applicationId,
    property_id: propertyId,
    reference_id: applicant.reference_id,
  };
}
