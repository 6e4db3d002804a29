import { Injectable } from '@nestjs/common';
import {
  ApplicantRepresentation,
  ApplicationListFilters,
  ApplicationRepresentation,
  encodeCursor,
  NotificationSubject,
  Page,
  ServiceError,
} from '@app/contracts';
import { ApplicantRecord, ApplicationRecord } from '../domain/application';
import { matchesListFilters } from '../domain/application-filters';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationList, ApplicationLists } from '../store/application-lists';
import { ApplicationsRepository } from '../store/applications.repository';
import { ApplicationViews, FloorPlanRents } from './application-views';

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

/** Reads of applications and their applicants, as the API and the notifications service ask them. */
@Injectable()
export class ApplicationReadsService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly lists: ApplicationLists,
    private readonly forms: ApplicantFormsRepository,
    private readonly views: ApplicationViews,
  ) {}

  /** The client's application; another client's is as unknown as one that never existed. */
  async get(clientId: number, id: number): Promise<ApplicationRepresentation> {
    return this.views.represent(await this.applications.findOwned(clientId, id));
  }

  async getApplicant(clientId: number, applicationId: number, id: number): Promise<ApplicantRepresentation> {
    const application = await this.applications.findOwned(clientId, applicationId);
    const applicant = application.applicants.find((candidate) => candidate.id === id);
    if (!applicant) throw ServiceError.notFound('applicant', id);
    return this.views.applicantWithForm(application, applicant);
  }

  /**
   * What the notifications service needs to e-mail the applicant, or null when it is gone, or
   * withdrew from the application: nothing more about it (reminders, decisions) is sent to one that left.
   */
  async notificationSubject(clientId: number, applicationId: number, id: number): Promise<NotificationSubject | null> {
    const application = await this.applications.find(applicationId);
    const applicant =
      application?.client_id === clientId ? application.applicants.find((candidate) => candidate.id === id) : undefined;
    if (!application || !applicant || applicant.withdrawn_at) return null;
    return this.views.notificationSubject(application, applicant);
  }

  /**
   * A page of the client's applications (of one property, if given) that pass the filters, newest
   * first. The first read is of as many positions as the page holds; when the filters leave it
   * short, the next reads go further ahead, up to MAX_PAGE_SCAN positions in all.
   */
  async list(clientId: number, query: ListQuery): Promise<Page<ApplicationRepresentation>> {
    const list: ApplicationList = { clientId, propertyId: query.propertyId };
    const filters = query.filters ?? {};
    const head = await this.lists.head(list);
    // A cursor from beyond the head (made up, or from another list) starts at the head.
    let position = query.before === undefined ? head : Math.min(query.before - 1, head);
    const items: Array<{ position: number; representation: ApplicationRepresentation }> = [];
    const rents = this.views.rents(clientId);
    for (let scanned = 0, round = 0; items.length < query.limit && position >= 1 && scanned < MAX_PAGE_SCAN; round++) {
      const wanted = query.limit - items.length;
      const ahead = round === 0 ? wanted : Math.min(wanted * 4, MAX_READ_AHEAD);
      const count = Math.min(ahead, position, MAX_PAGE_SCAN - scanned);
      const entries = await this.lists.read(list, position, count);
      const read = await this.applications.findMany(
        entries.map((entry) => entry.application_id),
        clientId,
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
    const { representation, primaryFormStatus } = await this.views.read(application, rents, applicants);
    return matchesListFilters(application, filters, { primaryFormStatus, representation }) ? representation : null;
  }
}
