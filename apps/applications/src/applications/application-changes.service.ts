import { Injectable } from '@nestjs/common';
import { EventOutbox } from '@app/events';
import { ApplicationChanges, ApplicationRepresentation, entityTag, ServiceError, tagListMatches } from '@app/contracts';
import { changedApplication, floorPlanNotOfProperty, withChange } from './application-changes';
import { ApplicationVersions } from './application-versions';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { PropertiesClient } from './properties.client';

/** Changes of one application that lost their version to another change read again, this often. */
const MAX_CHANGE_ATTEMPTS = 20;

/**
 * PATCH of an application. Each change claims the application's next version in
 * ApplicationVersions, as an added co-applicant does, so that changes made at once through
 * several instances are all kept: of two read from one version, one claims the next and the
 * other reads again and decides again (its If-Match then fails, or its change goes on top).
 */
@Injectable()
export class ApplicationChangesService {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly versions: ApplicationVersions,
    private readonly repository: ApplicationsRepository,
    private readonly properties: PropertiesClient,
    private readonly outbox: EventOutbox,
  ) {}

  /** Applies the changes; `ifMatch` (an If-Match header) must name the current representation. */
  async update(clientId: number, id: number, changes: ApplicationChanges, ifMatch?: string): Promise<ApplicationRepresentation> {
    let floorPlanChecked = false;
    for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
      const current = await this.applications.owned(clientId, id);
      const representation = await this.applications.represent(current);
      if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(representation), 'strong')) {
        throw ServiceError.preconditionFailed();
      }
      const now = new Date();
      const change = changedApplication(current, changes, now);
      if (!change) return representation;
      // Checked only when it changes: a floor plan deleted since it was chosen stays as it is.
      const floorPlanId = change.fields.floor_plan_id;
      if (typeof floorPlanId === 'number' && !floorPlanChecked) {
        await this.checkFloorPlan(clientId, current.property_id, floorPlanId);
        floorPlanChecked = true;
      }
      const version = (current.version ?? 0) + 1;
      const eventIds = await this.outbox.record(clientId, this.versions.witness(id, version), change.events);
      if (await this.versions.claimFields(id, version, change.fields, now, eventIds)) {
        const changed = withChange(current, change.fields, version, now);
        await this.repository.saveApplicants(changed);
        this.outbox.written(eventIds);
        return this.applications.represent(changed);
      }
      await this.outbox.discard(eventIds);
    }
    throw ServiceError.unavailable(`application ${id} is being changed by many requests at once; retry later`);
  }

  /** A 422 unless the floor plan is one of the property's, asked of the properties service. */
  private async checkFloorPlan(clientId: number, propertyId: number, floorPlanId: number): Promise<void> {
    const ids = await this.properties.floorPlanIds(clientId, propertyId);
    if (!ids?.includes(floorPlanId)) throw floorPlanNotOfProperty(propertyId);
  }
}
