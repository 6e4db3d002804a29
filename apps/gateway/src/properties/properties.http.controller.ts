import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreatePropertyMessage,
  CreatePropertyRequest,
  propertyRefFromPath,
  PROPERTIES,
  PropertyResponse,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { EntityTagInterceptor } from '../http/entity-tag.interceptor';
import { IdempotencyKey } from '../http/idempotency-key.decorator';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

const PROPERTY_ID = ApiParam({ name: 'id', description: 'The property’s id, a positive integer.', example: 1 });

@ApiTags('properties')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/properties')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class PropertiesHttpController {
  constructor(private readonly backends: Backends) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createProperty',
    summary: 'Create a property',
    description: 'Creates a property of the caller’s, with one floor plan named after it. Only name is required.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, PropertyResponse, 'The property as created, with its defaults and its floor plan.')
  @ApiErrorResponses([400, 401, 409, 413, 415, 422, 429, 503])
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreatePropertyRequest)) request: CreatePropertyRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<PropertyResponse> {
    const message: CreatePropertyMessage = { client_id: clientId, request, idempotency_key: idempotencyKey };
    return this.backends.properties(PROPERTIES.CREATE, message);
  }

  @Get(':id')
  @UseInterceptors(EntityTagInterceptor)
  @ApiOperation({ operationId: 'getProperty', summary: 'Get a property', description: 'With every floor plan.' })
  @PROPERTY_ID
  @ApiSuccess(200, PropertyResponse, 'The property.')
  @ApiErrorResponses([401, 404, 429, 503])
  get(@ClientId() clientId: number, @Param('id') id: string): Promise<PropertyResponse> {
    return this.backends.properties(PROPERTIES.GET, propertyRefFromPath(clientId, id));
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteProperty',
    summary: 'Delete a property',
    description: 'Its id is never used again; applying to it afterwards is refused.',
  })
  @PROPERTY_ID
  @ApiSuccess(200, PropertyResponse, 'The representation the property had.')
  @ApiErrorResponses([401, 404, 429, 503])
  delete(@ClientId() clientId: number, @Param('id') id: string): Promise<PropertyResponse> {
    return this.backends.properties(PROPERTIES.DELETE, propertyRefFromPath(clientId, id));
  }
}
