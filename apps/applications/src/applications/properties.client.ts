import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { sendRpc } from '@app/common';
import { PROPERTIES, PropertyRefMessage, PropertySummary } from '@app/contracts';

export const PROPERTIES_QUEUE_CLIENT = Symbol('PROPERTIES_QUEUE_CLIENT');
export const PROPERTY_LOOKUP_TIMEOUT_MS = Symbol('PROPERTY_LOOKUP_TIMEOUT_MS');

/** Asks the properties service, over the broker, about the property an application names. */
@Injectable()
export class PropertiesClient {
  constructor(
    @Inject(PROPERTIES_QUEUE_CLIENT) private readonly client: ClientProxy,
    @Inject(PROPERTY_LOOKUP_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  lookup(clientId: number, propertyId: number): Promise<PropertySummary | null> {
    const message: PropertyRefMessage = { client_id: clientId, id: propertyId };
    return sendRpc<PropertySummary | null>(this.client, PROPERTIES.LOOKUP, message, this.timeoutMs);
  }
}
