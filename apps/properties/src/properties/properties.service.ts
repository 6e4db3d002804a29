import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { CreateScope, IdAllocator, Idempotency } from '@app/persistence';
import { PROPERTY_DEFAULTS, PropertyInput, PropertyRepresentation, PropertySummary, ServiceError } from '@app/contracts';
import { PropertiesEnvironment } from '../config/properties.environment';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { toPropertyRepresentation } from './property.mapper';

@Injectable()
export class PropertiesService {
  private readonly publicBaseUrl: string;

  constructor(
    private readonly repository: PropertiesRepository,
    private readonly ids: IdAllocator,
    private readonly idempotency: Idempotency,
    private readonly clientDefaults: ClientDefaults,
    env: PropertiesEnvironment,
  ) {
    this.publicBaseUrl = publicBase(env.PUBLIC_BASE_URL);
  }

  /** Creates the property with its one default floor plan, named after it; once per request. */
  create(clientId: number, input: PropertyInput, scope: Omit<CreateScope, 'clientId' | 'body'>): Promise<PropertyRepresentation> {
    return this.idempotency.run({ ...scope, clientId, body: input }, async (requestKey) => {
      const [id, floorPlanId] = await Promise.all([this.ids.allocate('properties'), this.ids.allocate('floor_plans')]);
      const now = new Date();
      const stored = await this.repository.insertOnce({
        id,
        client_id: clientId,
        available: input.available ?? PROPERTY_DEFAULTS.available,
        kind: input.kind ?? PROPERTY_DEFAULTS.kind,
        name: input.name,
        street: input.street ?? '',
        city: input.city ?? '',
        state: input.state ?? '',
        zip: input.zip ?? '',
        invitation_only: input.invitation_only ?? PROPERTY_DEFAULTS.invitation_only,
        invitation_only_message: input.invitation_only_message ?? PROPERTY_DEFAULTS.invitation_only_message,
        ...this.clientDefaults.for(clientId),
        floor_plans: [{ id: floorPlanId, property_id: id, name: input.name, beds: null, baths: null, deposit: null, rent: null }],
        created_at: now,
        updated_at: now,
        request_key: requestKey,
        deleted_at: null,
      });
      return toPropertyRepresentation(stored, this.publicBaseUrl);
    });
  }

  async get(clientId: number, id: number): Promise<PropertyRepresentation> {
    const record = await this.repository.findLive(clientId, id);
    if (!record) throw ServiceError.propertyNotFound(id);
    return toPropertyRepresentation(record, this.publicBaseUrl);
  }

  async delete(clientId: number, id: number): Promise<PropertyRepresentation> {
    const record = await this.repository.markDeleted(clientId, id, new Date());
    if (!record) throw ServiceError.propertyNotFound(id);
    return toPropertyRepresentation(record, this.publicBaseUrl);
  }

  /** Another client's property, a deleted one and an unknown id all look the same: null. */
  async lookup(clientId: number, id: number): Promise<PropertySummary | null> {
    const record = await this.repository.findLive(clientId, id);
    return record ? { id: record.id, name: record.name } : null;
  }
}
