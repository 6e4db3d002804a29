import { Injectable } from '@nestjs/common';
import { ApplicationChanges, ApplicationRepresentation, entityTag, ServiceError, tagListMatches } from '@app/contracts';
import { PropertiesClient } from '../clients/properties.client';
import { changedApplication, floorPlanNotOfProperty } from '../domain/application-changes';
import { ApplicationsRepository } from '../store/applications.repository';
import { ApplicationViews } from './application-views';

/**
 * PATCH of an application: each change is the application's next version (see
 * ApplicationsRepository.change), so that changes made at once through several instances are all
 * kept: of two read from one version, one claims the next and the other reads again and decides
 * again (its If-Match then fails, or its change goes on top).
 */
@Injectable()
export class ApplicationChangesService {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly views: ApplicationViews,
    private readonly properties: PropertiesClient,
  ) {}

  /** Applies the changes; `ifMatch` (an If-Match header) must name the current representation. */
  update(clientId: number, id: number, changes: ApplicationChanges, ifMatch?: string): Promise<ApplicationRepresentation> {
    let floorPlanChecked = false;
    return this.applications.change(clientId, id, async (current) => {
      const representation = await this.views.represent(current);
      if (ifMatch !== undefined && !tagListMatches(ifMatch, entityTag(representation), 'strong')) {
        throw ServiceError.preconditionFailed();
      }
      const at = new Date();
      const change = changedApplication(current, changes, at);
      if (!change) return { change: null, answer: () => representation };
      // Checked only when it changes: a floor plan deleted since it was chosen stays as it is.
      const floorPlanId = change.fields.floor_plan_id;
      if (typeof floorPlanId === 'number' && !floorPlanChecked) {
        const ids = await this.properties.floorPlanIds(clientId, current.property_id);
        if (!ids?.includes(floorPlanId)) throw floorPlanNotOfProperty(current.property_id);
        floorPlanChecked = true;
      }
      return { change: { fields: change.fields }, at, events: change.events, answer: (changed) => this.views.represent(changed) };
    });
  }
}
