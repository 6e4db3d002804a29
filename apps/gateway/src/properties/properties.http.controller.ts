import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ContractPipe } from '@app/common';
import {
  CreatePropertyMessage,
  CreatePropertyRequest,
  parseIdSegment,
  PROPERTIES,
  PropertyRefMessage,
  PropertyResponse,
  ServiceError,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { IdempotencyKey } from '../http/idempotency-key.decorator';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@Controller('api/v2/properties')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class PropertiesHttpController {
  constructor(private readonly backends: Backends) {}

  @Post()
  @HttpCode(201)
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreatePropertyRequest)) request: CreatePropertyRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<PropertyResponse> {
    const message: CreatePropertyMessage = { client_id: clientId, request, idempotency_key: idempotencyKey };
    return this.backends.properties(PROPERTIES.CREATE, message);
  }

  @Get(':id')
  get(@ClientId() clientId: number, @Param('id') id: string): Promise<PropertyResponse> {
    return this.backends.properties(PROPERTIES.GET, propertyRef(clientId, id));
  }

  @Delete(':id')
  @HttpCode(200)
  delete(@ClientId() clientId: number, @Param('id') id: string): Promise<PropertyResponse> {
    return this.backends.properties(PROPERTIES.DELETE, propertyRef(clientId, id));
  }
}

/** An id that is not a positive integer names no property: 404 without asking the service. */
function propertyRef(clientId: number, segment: string): PropertyRefMessage {
  const id = parseIdSegment(segment);
  if (id === null) throw ServiceError.propertyNotFound(segment);
  return { client_id: clientId, id };
}
