import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { ApplicantSealer } from '@app/crypto';
import { EventOutbox } from '@app/events';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import {
  AddedApplicantInput,
  AddedApplicantType,
  ApplicantInput,
  ApplicantRepresentation,
  ApplicantType,
  ApplicationInput,
  ApplicationListFilters,
  ApplicationRepresentation,
  encodeCursor,
  ErrorCode,
  EventDataOf,
  FormStatus,
  MAX_APPLICANTS,
  NotificationSubject,
  SubjectDecision,
  Page,
  ServiceError,
} from '@app/contracts';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { matchesListFilters } from './application-filters';
import { ApplicationIndex, ApplicationList } from './application-index';
import { ApplicationVersions } from './application-versions';
import { toApplicantRepresentation, toApplicationRepresentation } from './application.mapper';
import { incomeFigures, judgedRent } from './income-to-rent';
import { ApplicantRecord, ApplicationRecord } from './application.schema';
import { ApplicationsRepository } from './applications.repository';
import { ApplicantForms, withFormProgress } from './applicant-forms';
import { addedBy, addedByEmail, emailTypedOnForm, FORM_STARTED_KEY_PREFIX, joining } from './form-added';
import { FormTokens } from './form-tokens';
import { PropertiesClient } from './properties.client';

/** Tries of an add whose version another add took first; each loser reads again and moves on. */
const MAX_ADD_ATTEMPTS = 50;
/** Tries at storing a new application, each after finding another try's being removed. */
const MAX_STORE_ATTEMPTS = 3;
/**
 * Positions one list page reads at most, so that entries without an application, or applications
 * a filter leaves out, cannot make a page unbounded; such a page may be short and still have a cursor.
 */
const MAX_PAGE_SCAN = 500;
/** Positions read at once when a filter left the previous read short: each read is one `_id $in` of keys. */
const MAX_READ_AHEAD = 100;

export interface ListQuery {
  propertyId?: number;
  limit: number;
  before?: number;
  filters?: ApplicationListFilters;
}

@Injectable()
export class ApplicationsService {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly repository: ApplicationsRepository,
    private readonly versions: ApplicationVersions,
    private readonly index: ApplicationIndex,
    private readonly properties: PropertiesClient,
    private readonly ids: IdAllocator,
    private readonly idempotency: Idempotency,
    private readonly sealer: ApplicantSealer,
    private readonly formTokens: FormTokens,
    private readonly forms: ApplicantForms,
    private readonly outbox: EventOutbox,
    env: ApplicationsEnvironment,
  ) {
    this.publicBaseUrl = publicBase(env.PUBLIC_BASE_URL);
  }

  /** Creates the application and its primary applicant, for a live property the client owns; once per request. */
  create(
    clientId: number,
    input: ApplicationInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<ApplicationRepresentation> {
    return this.idempotency.run({ ...scope, clientId, body: input }, (requestKey, resumed) =>
      this.store(clientId, input, requestKey, resumed),
    );
  }

  /** The client's application; another client's is as unknown as one that never existed. */
  async get(clientId: number, id: number): Promise<ApplicationRepresentation> {
    return this.represent(await this.owned(clientId, id));
  }

  /**
   * The representation of an application read with every change folded in. Its status and income
   * figures need its applicants' form progress (kept in ApplicantForms) and its floor plan's rent
   * (asked of the properties service); `rents` shares those asks across a list page.
   */
  async represent(application: ApplicationRecord, rents?: FloorPlanRents): Promise<ApplicationRepresentation> {
    return (await this.read(application, rents)).representation;
  }

  /**
   * The representation, and the primary applicant's form_status it was made with; `applicants`
   * are the application's with their form progress when the caller read it already.
   */
  private async read(
    application: ApplicationRecord,
    rents = new FloorPlanRents(this.properties, application.client_id),
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

  async getApplicant(clientId: number, applicationId: number, id: number): Promise<ApplicantRepresentation> {
    const application = await this.owned(clientId, applicationId);
    const applicant = application.applicants.find((candidate) => candidate.id === id);
    if (!applicant) throw ServiceError.notFound('applicant', id);
    const form = applicant.form_token_digest ? await this.forms.find(applicant.form_token_digest) : null;
    return this.applicantRepresentation(application, withFormProgress(applicant, form));
  }

  /**
   * What the notifications service needs to e-mail the applicant, or null when it is gone: the
   * address it gave on the form (else the integrator's), its own form link, and whether to invite it (the caller asked for it with send_email, or the
   * applicant was named on the form).
   */
  async notificationSubject(clientId: number, applicationId: number, id: number): Promise<NotificationSubject | null> {
    const application = await this.readOwned(clientId, applicationId);
    const applicant = application?.applicants.find((candidate) => candidate.id === id);
    if (!application || !applicant) return null;
    return this.subjectOf(application, applicant);
  }

  private async subjectOf(application: ApplicationRecord, applicant: ApplicantRecord): Promise<NotificationSubject> {
    const form = applicant.form_token_digest ? await this.forms.find(applicant.form_token_digest) : null;
    // The name and address as the applicant last confirmed them on the form, where it corrected
    // what the integrator first gave: mail follows the applicant's own address.
    const shown = withFormProgress(applicant, form);
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

  /** Adds a co-applicant to the client's application; once per request, and never losing a concurrent add. */
  addApplicant(
    clientId: number,
    applicationId: number,
    input: AddedApplicantInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<ApplicantRepresentation> {
    const body = { application_id: applicationId, applicant: input };
    const { type, ...applicant } = input;
    return this.idempotency.run({ ...scope, clientId, body }, (requestKey) =>
      this.storeApplicant(clientId, applicationId, applicant, type ?? 'co_applicant', requestKey),
    );
  }

  /**
   * An application and its primary applicant started on the online form: no Idempotency-Key
   * there, each submission of step 1 (`submission`, its CSRF token's nonce) is a request of its
   * own, and doing one again (its first try died) finds the application that try stored.
   */
  async createFromForm(clientId: number, input: ApplicationInput, submission: string): Promise<ApplicationRecord> {
    const created = await this.store(clientId, input, `${FORM_STARTED_KEY_PREFIX}${submission}`, true);
    return this.owned(clientId, created.id);
  }

  /** A co-applicant or guarantor named on the form; `requestKey` makes a repeated submission add it once. */
  async addApplicantFromForm(
    clientId: number,
    applicationId: number,
    input: ApplicantInput,
    type: AddedApplicantType,
    requestKey: string,
  ): Promise<void> {
    // Whoever the form names is always e-mailed their own link: nobody else would give it to them.
    await this.storeApplicant(clientId, applicationId, { ...input, send_email: true }, type, requestKey);
  }

  /**
   * A page of the client's applications (of one property, if given) that pass the filters, newest
   * first. The first read is of as many positions as the page holds; when the filters leave it
   * short, the next reads go further ahead, up to MAX_PAGE_SCAN positions in all.
   */
  async list(clientId: number, query: ListQuery): Promise<Page<ApplicationRepresentation>> {
    const list: ApplicationList = { clientId, propertyId: query.propertyId };
    const filters = query.filters ?? {};
    const head = await this.index.head(list);
    // A cursor from beyond the head (made up, or from another list) starts at the head.
    let position = query.before === undefined ? head : Math.min(query.before - 1, head);
    const items: Array<{ position: number; representation: ApplicationRepresentation }> = [];
    const rents = new FloorPlanRents(this.properties, clientId);
    for (let scanned = 0, round = 0; items.length < query.limit && position >= 1 && scanned < MAX_PAGE_SCAN; round++) {
      const wanted = query.limit - items.length;
      const ahead = round === 0 ? wanted : Math.min(wanted * 4, MAX_READ_AHEAD);
      const count = Math.min(ahead, position, MAX_PAGE_SCAN - scanned);
      const entries = await this.index.read(list, position, count);
      const read = await this.readAllOwned(
        clientId,
        entries.map((entry) => entry.application_id),
      );
      // The forms of those that the application's own fields keep, read for all of them at once.
      const candidates = read.filter((application) => matchesListFilters(application, filters));
      const progress = await this.forms.withProgressOfAll(candidates.map((application) => application.applicants));
      const byId = new Map(candidates.map((application, i) => [application.id, { application, applicants: progress[i] }]));
      const kept = await Promise.all(entries.map((entry) => this.keptByFilters(byId.get(entry.application_id), filters, rents)));
      entries.forEach((entry, i) => {
        const representation = kept[i];
        if (representation && items.length < query.limit) items.push({ position: entry.position, representation });
      });
      position -= count;
      scanned += count;
    }
    // A full page continues below its last item (what was read beyond it is read again then).
    const last = items.length === query.limit ? items[items.length - 1].position - 1 : position;
    return {
      items: items.map(({ representation }) => representation),
      next_cursor: last >= 1 ? encodeCursor(last + 1) : null,
    };
  }

  /**
   * The representation of a candidate of a list page (an application that its own fields keep,
   * with its applicants' form progress) if the list filters keep it too, else null.
   */
  private async keptByFilters(
    candidate: { application: ApplicationRecord; applicants: ApplicantRecord[] } | undefined,
    filters: ApplicationListFilters,
    rents: FloorPlanRents,
  ): Promise<ApplicationRepresentation | null> {
    if (!candidate) return null;
    const { application, applicants } = candidate;
    const { representation, primaryFormStatus } = await this.read(application, rents, applicants);
    return matchesListFilters(application, filters, { primaryFormStatus, representation }) ? representation : null;
  }

  /**
   * Stores the application unless its property is gone. A try that resumes an unfinished one
   * first looks for what that one stored: its property may have been deleted since, and what was
   * stored while the property was live stays the answer. An application is kept only once its
   * property is seen live after the insert, so none is created after the property's DELETE
   * answered: a delete that lands between the lookup and the insert is seen by the second look.
   */
  private async store(
    clientId: number,
    input: ApplicationInput,
    requestKey: string,
    resumed: boolean,
  ): Promise<ApplicationRepresentation> {
    const earlier = resumed ? await this.repository.findByRequestKey(requestKey) : null;
    // The try that stored it may have died before saying it kept it: its events show from now.
    // Unless that try was removing it (its property not seen live): then this one starts afresh.
    if (earlier && (await this.repository.confirmCreated(earlier.id, earlier.event_ids ?? []))) {
      return this.represent(await this.versions.current(earlier));
    }
    for (let attempt = 0; attempt < MAX_STORE_ATTEMPTS; attempt++) {
      const stored = await this.storeAfresh(clientId, input, requestKey);
      if (stored) return this.represent(stored);
    }
    throw ServiceError.unavailable('another try of this request is storing its application; retry later');
  }

  /**
   * One try at storing the application, or null when the one it met under its request key (a
   * redelivery's first try's) was being removed, which confirmCreated finished: the caller tries again.
   */
  private async storeAfresh(clientId: number, input: ApplicationInput, requestKey: string): Promise<ApplicationRecord | null> {
    // The ids are claimed while the property is looked up rather than after it. A refused create
    // then leaves a gap in the ids, which are promised to increase, not to be dense.
    const [property, id, applicantId] = await Promise.all([
      this.properties.lookup(clientId, input.property_id),
      this.ids.allocate('applications'),
      this.ids.allocate('applicants'),
    ]);
    if (!property) throw ServiceError.propertyIdInvalid();

    const now = new Date();
    const primary = this.newApplicant(clientId, id, applicantId, 'primary', input.applicant, now);
    // Recorded and listed before it is stored, side by side: readers skip an entry until its
    // application exists, and the relay drops events whose application never does.
    const [eventIds] = await Promise.all([
      this.outbox.record(clientId, this.repository.createdWitness(id), [
        { event: 'application.created', data: { application_id: id, property_id: property.id } },
        { event: 'applicant.created', data: applicantEventData(id, property.id, primary) },
      ]),
      this.index.add(clientId, property.id, id),
    ]);
    const record: ApplicationRecord = {
      id,
      client_id: clientId,
      property_id: property.id,
      property_name: property.name,
      assigned_user_id: input.assigned_user_id ?? null,
      user_specified_rent: input.user_specified_rent ?? null,
      desired_move_in: input.desired_move_in ?? null,
      applicants: [primary],
      version: 0,
      created_at: now,
      updated_at: now,
      request_key: requestKey,
      event_ids: eventIds,
    };
    const stored = await this.repository.insertOnce(record);
    // One an earlier try stored (a redelivery) was checked by that try, or is the one it resumes,
    // and carries that try's events, which show once it is said kept.
    if (stored.id === id) await this.keepIfPropertyLive(clientId, stored);
    else await this.outbox.discard(eventIds);
    // Only now can nothing undo the insert: its events become visible to the relay.
    if (!(await this.repository.confirmCreated(stored.id, stored.event_ids ?? []))) return null;
    if (stored.id === id) this.outbox.written(eventIds);
    return stored;
  }

  /**
   * Removes the just-stored application and refuses, unless its property is still live, or
   * another try of the same request (a redelivery that found it stored) said it kept meanwhile:
   * that try may have answered with it, so it stands.
   */
  private async keepIfPropertyLive(clientId: number, stored: ApplicationRecord): Promise<void> {
    let live: boolean;
    try {
      live = (await this.properties.lookup(clientId, stored.property_id)) !== null;
    } catch (error) {
      // Not known to be live: the retry starts over, looking the property up first.
      if (await this.repository.removeUnlessKept(stored.id)) throw error;
      return;
    }
    if (!live && (await this.repository.removeUnlessKept(stored.id))) throw ServiceError.propertyIdInvalid();
  }

  private async storeApplicant(
    clientId: number,
    applicationId: number,
    input: AddedApplicantInput,
    type: AddedApplicantType,
    requestKey: string,
  ): Promise<ApplicantRepresentation> {
    let applicantId: number | undefined;
    for (let attempt = 0; attempt < MAX_ADD_ATTEMPTS; attempt++) {
      const application = await this.owned(clientId, applicationId);
      const added = application.applicants.find((applicant) => applicant.request_key === requestKey);
      if (added) return this.applicantRepresentation(application, added);

      if (application.personal_data_erased_at) throw personalDataErased(applicationId);
      if (application.applicants.length >= MAX_APPLICANTS) throw tooManyApplicants();

      applicantId ??= await this.ids.allocate('applicants');
      const now = new Date();
      const applicant = {
        ...this.newApplicant(clientId, applicationId, applicantId, type, input, now),
        request_key: requestKey,
        ...(input.send_email === true ? { send_email: true } : {}),
      };
      const version = (application.version ?? 0) + 1;
      const eventIds = await this.outbox.record(clientId, this.versions.witness(application.id, version), [
        { event: 'applicant.created', data: applicantEventData(application.id, application.property_id, applicant) },
      ]);
      if (await this.versions.claim(application.id, version, applicant, eventIds)) {
        const changed = { ...application, applicants: [...application.applicants, applicant], version, updated_at: now };
        await this.repository.saveApplicants(changed);
        this.outbox.written(eventIds);
        return this.applicantRepresentation(changed, applicant);
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`application ${applicationId} is being changed by many requests at once; retry later`);
  }

  private newApplicant(
    clientId: number,
    applicationId: number,
    id: number,
    type: ApplicantType,
    input: ApplicantInput,
    now: Date,
  ): ApplicantRecord {
    const owner = { clientId, applicantId: id };
    return {
      id,
      type,
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      dob: input.dob ? this.sealer.sealField('dob', input.dob, owner) : null,
      id_number: input.id_number ? this.sealer.sealField('id_number', input.id_number, owner) : null,
      phone: input.phone ?? null,
      custom_data: input.custom_data ? JSON.stringify(input.custom_data) : null,
      reference_id: input.reference_id ?? null,
      redirect_url: input.redirect_url ?? null,
      ...this.formTokens.issue(clientId, applicationId, id),
      form_status: 'not_started',
      form_started_at: null,
      form_completed_at: null,
      created_at: now,
      updated_at: now,
    };
  }

  applicantRepresentation(application: ApplicationRecord, applicant: ApplicantRecord): ApplicantRepresentation {
    return toApplicantRepresentation(
      application,
      applicant,
      this.publicBaseUrl,
      this.formTokens.formUrl(application.client_id, applicant),
    );
  }

  /** The client's application with every change folded in; 404 for none, or another client's. */
  async owned(clientId: number, id: number): Promise<ApplicationRecord> {
    const application = await this.readOwned(clientId, id);
    if (!application) throw ServiceError.notFound('application', id);
    return application;
  }

  /**
   * The client's applications among `ids`, in that order, with every change folded in; those that
   * do not exist (yet) or are another client's are left out. Two reads however many there are.
   */
  private async readAllOwned(clientId: number, ids: number[]): Promise<ApplicationRecord[]> {
    const stored = new Map((await this.repository.findAllByKey(ids)).map((record) => [record.id, record]));
    const owned = ids.flatMap((id) => {
      const record = stored.get(id);
      return record && record.client_id === clientId ? [record] : [];
    });
    return this.versions.currentAll(owned);
  }

  /** The client's application with every change folded in, or null (none, or another client's). */
  private async readOwned(clientId: number, id: number): Promise<ApplicationRecord | null> {
    const stored = await this.repository.findByKey(id);
    if (!stored || stored.client_id !== clientId) return null;
    return this.versions.current(stored);
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

/** An applicant added to an application erased would bring back what the erasure took. */
function personalDataErased(id: number): ServiceError {
  return ServiceError.conflict(`the personal data of application ${id} was erased; no applicant can be added to it`);
}

function tooManyApplicants(): ServiceError {
  const message = `cannot be added: an application has at most ${MAX_APPLICANTS} applicants`;
  return new ServiceError(ErrorCode.VALIDATION_FAILED, `applicant ${message}`, [{ field: 'applicant', message }]);
}

/** The application's current decision as its message tells it, with its place in the history; null while undecided. */
function subjectDecision(application: ApplicationRecord): SubjectDecision | null {
  const decisions = application.decisions ?? [];
  const current = decisions[0];
  if (!current) return null;
  const { status, conditions, reasons, note } = current;
  return { status, conditions, reasons, note, number: decisions.length };
}
