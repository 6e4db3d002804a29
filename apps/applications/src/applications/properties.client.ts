import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { sendRpc } from '@app/common';
import { isPositiveId, PROPERTIES, PropertyRefMessage, PropertySummary } from '@app/contracts';

export const PROPERTIES_QUEUE_CLIENT = Symbol('PROPERTIES_QUEUE_CLIENT');
export const PROPERTY_LOOKUP_TIMEOUT_MS = Symbol('PROPERTY_LOOKUP_TIMEOUT_MS');

/** Asks the properties service, over the broker, about the property an application names. */
@Injectable()
export class PropertiesClient {
  constructor(
    @Inject(PROPERTIES_QUEUE_CLIENT) private readonly client: ClientProxy,
    @Inject(PROPERTY_LOOKUP_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  async lookup(clientId: number, propertyId: number): Promise<PropertySummary | null> {
    const message: PropertyRefMessage = { client_id: clientId, id: propertyId };
    const answer = await sendRpc<unknown>(this.client, PROPERTIES.LOOKUP, message, this.timeoutMs);
    if (answer === null || isPropertySummary(answer)) return answer;
    // Not a refusal but a peer out of step with this one: the message is retried, then dead-lettered.
    throw new Error(`properties.lookup answered with an unexpected shape: ${typeof answer}`);
  }
}

function isPropertySummary(value: unknown): value is PropertySummary {
  const candidate = value as Partial<PropertySummary> | null;
  return typeof candidate === 'object' && candidate !== null && isPositiveId(candidate.id) && typeof candidate.name === 'string';
}
