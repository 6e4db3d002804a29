import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import {
  ApplicantRepresentation,
  ApplicationRepresentation,
  FormStatus,
  NotificationSubject,
  SubjectDecision,
} from '@app/contracts';
import { PropertiesClient } from '../clients/properties.client';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { toApplicantRepresentation, toApplicationRepresentation } from '../domain/application.mapper';
import { addedBy, addedByEmail, emailTypedOnForm, joining } from '../domain/form-added';
import { ApplicantForm, withFormProgress } from '../domain/form-progress';
import { incomeFigures, judgedRent } from '../domain/income-to-rent';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { FormTokens } from './form-tokens';

/**
 * How an application and its applicants are shown: their representations, which need the
 * applicants' form progress (kept beside the application) and the floor plan's rent (asked of the
 * properties service), and what the notifications service needs to e-mail an applicant.
 */
@Injectable()
export class ApplicationViews {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly forms: ApplicantFormsRepository,
    private readonly properties: PropertiesClient,
    private readonly formTokens: FormTokens,
    env: ApplicationsEnvironment,
  ) {
    this.publicBaseUrl = publicBase(env.PUBLIC_BASE_URL);
  }

  /** Shares the asks for floor plans' rents across the applications of one list page. */
  rents(clientId: number): FloorPlanRents {
    return new FloorPlanRents(this.properties, clientId);
  }

  /**
   * The application as shown; `rents` shares its asks with others of a page, `applicants` are its
   * applicants with their form progress when the caller knows it already.
   */
  async represent(
    application: ApplicationRecord,
    rents?: FloorPlanRents,
    applicants?: ApplicantRecord[],
  ): Promise<ApplicationRepresentation> {
    return (await this.read(application, rents, applicants)).representation;
  }

  /**
   * The representation, and the primary applicant's form_status it was made with; `applicants`
   * are the application's with their form progress when the caller read it already.
   */
  async read(
    application: ApplicationRecord,
    rents = this.rents(application.client_id),
    applicants?: ApplicantRecord[],
  ): Promise<{ representation: ApplicationRepresentation; primaryFormStatus: FormStatus }> {
    const [withProgress, floorPlanRent] = await Promise.all([
      applicants ?? this.forms.withProgress(application.applicants),
      rents.of(application.property_id, application.floor_plan_id ?? null),
    ]);
    const primaryFormStatus = withProgress[0]?.form_status ?? 'not_started';
    const figures = incomeFigures(withProgress, judgedRent(floorPlanRent, application.user_specified_rent));
    const representation = toApplicationRepresentation(
      application,
      this.publicBaseUrl,
      primaryFormStatus === 'completed',
      figures,
    );
    return { representation, primaryFormStatus };
  }

  /** The applicant as shown, as its form left it when `form` is given (its record read already). */
  applicant(application: ApplicationRecord, applicant: ApplicantRecord, form?: ApplicantForm | null): ApplicantRepresentation {
    const shown = form === undefined ? applicant : withFormProgress(applicant, form);
    return toApplicantRepresentation(
      application,
      shown,
      this.publicBaseUrl,
      this.formTokens.formUrl(application.client_id, applicant),
    );
  }

  /** The applicant as shown, its form record read here. */
  async applicantWithForm(application: ApplicationRecord, applicant: ApplicantRecord): Promise<ApplicantRepresentation> {
    return this.applicant(application, applicant, await this.formOf(applicant));
  }

  /** The applicant's form record, or null for one that never opened its form. */
  formOf(applicant: ApplicantRecord): Promise<ApplicantForm | null> {
    return applicant.form_token_digest ? this.forms.find(applicant.form_token_digest) : Promise.resolve(null);
  }

  /**
   * What the notifications service needs to e-mail the applicant: the address it gave on the form
   * (else the integrator's), its own form link, and whether to invite it (the caller asked for it
   * with send_email, or the applicant was named on the form).
   */
  async notificationSubject(application: ApplicationRecord, applicant: ApplicantRecord): Promise<NotificationSubject> {
    // The name and address as the applicant last confirmed them on the form, where it corrected
    // what the integrator first gave: mail follows the applicant's own address.
    const shown = withFormProgress(applicant, await this.formOf(applicant));
    return {
      client_id: application.client_id,
      application_id: application.id,
      applicant_id: applicant.id,
      type: applicant.type,
      first_name: shown.first_name,
      last_name: shown.last_name,
      email: shown.email,
      property_id: application.property_id,
      property_name: application.property_name,
      form_url: this.formTokens.formUrl(application.client_id, applicant),
      form_status: shown.form_status ?? 'not_started',
      invite: applicant.send_email === true,
      added_by: addedBy(application, applicant),
      joins: joining(application, applicant)?.primary_name ?? null,
      decision: subjectDecision(application),
      email_from_form: emailTypedOnForm(application, applicant, shown),
      added_by_email: addedByEmail(application, applicant),
    };
  }
}

/**
 * The rents of floor plans, asked of the properties service once per property however many
 * applications of a list page name it. A property gone since (deleted) has none.
 */
export class FloorPlanRents {
  private readonly properties = new Map<number, Promise<Map<number, number | null> | null>>();

  constructor(
    private readonly client: PropertiesClient,
    private readonly clientId: number,
  ) {}

  /** The rent of the floor plan, or null: none chosen, gone, or without a rent. */
  async of(propertyId: number, floorPlanId: number | null): Promise<number | null> {
    if (floorPlanId === null) return null;
    let plans = this.properties.get(propertyId);
    if (!plans) {
      plans = this.client
        .floorPlans(this.clientId, propertyId)
        .then((found) => (found ? new Map(found.map((plan) => [plan.id, plan.rent])) : null));
      this.properties.set(propertyId, plans);
    }
    return (await plans)?.get(floorPlanId) ?? null;
  }
}

/** The application's current decision as its message tells it, with its place in the history; null while undecided. */
function subjectDecision(application: ApplicationRecord): SubjectDecision | null {
  const decisions = application.decisions ?? [];
  const current = decisions[0];
  if (!current) return null;
  const { status, conditions, reasons, note } = current;
  return { status, conditions, reasons, note, number: decisions.length };
}
