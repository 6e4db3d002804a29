import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  APPLICATIONS,
  ContractPipe,
  PlainTextPipe,
  CreatePropertyMessage,
  CreatePropertyRequest,
  DeletePropertyMessage,
  MAX_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  listPropertiesFromQuery,
  propertyRefFromPath,
  PROPERTIES,
  PropertyListResponse,
  PropertyRefMessage,
  PropertyResponse,
  UpdatePropertyMessage,
  UpdatePropertyRequest,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { EntityTagInterceptor } from '../http/entity-tag.interceptor';
import { IdempotencyFields, IdempotencyKey } from '../http/idempotency-key.decorator';
import { IfMatch } from '../http/if-match.decorator';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { ApiEntityTag, IF_MATCH_HEADER } from '../openapi/conditional-requests';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPathId } from '../openapi/path-ids';

const UPDATE_422 = {
  description:
    'Invalid input, as on create (the message names the first problem, details lists every one, unknown fields ' +
    'included); or kind single_family while the property has more than one floor plan.',
  examples: {
    invalid: {
      summary: 'Invalid fields',
      value: {
        error: {
          message: 'property.name must not be empty',
          details: [
            { field: 'property.name', message: 'must not be empty' },
            { field: 'property.colour', message: 'is not a known field' },
          ],
        },
      },
    },
  },
};

const PROPERTY_ID = ApiPathId('id', 'The property’s id, a positive integer.');

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
    @Body(new ContractPipe(CreatePropertyRequest), new PlainTextPipe(['property.name'])) request: CreatePropertyRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<PropertyResponse> {
    const message: CreatePropertyMessage = { client_id: clientId, request, ...idempotency };
    return this.backends.properties(PROPERTIES.CREATE, message);
  }

  @Get()
  @ApiOperation({
    operationId: 'listProperties',
    summary: 'List properties',
    description: 'The caller’s live properties, newest first, a page at a time.',
  })
  @ApiQuery({
    name: 'available',
    required: false,
    enum: ['true', 'false'],
    description: 'Only properties with this `available`.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    description: 'Properties per page.',
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string' },
    description: 'The `next_cursor` of the previous page. A page may hold fewer than `limit` and still have one.',
  })
  @ApiSuccess(200, PropertyListResponse, 'A page of properties.')
  @ApiErrorResponses([401, 422, 429, 503], {
    422: {
      description:
        'A `limit`, `cursor` or `available` that is not one this API accepts, or an unknown query parameter; details names each.',
      examples: {
        invalid: {
          summary: 'Bad limit',
          value: {
            error: {
              message: 'limit must be an integer from 1 to 100',
              details: [{ field: 'limit', message: 'must be an integer from 1 to 100' }],
            },
          },
        },
      },
    },
  })
  list(@ClientId() clientId: number, @Query() query: Record<string, unknown>): Promise<PropertyListResponse> {
    return this.backends.properties(PROPERTIES.LIST, listPropertiesFromQuery(clientId, query));
  }

  @Get(':id')
  @UseInterceptors(EntityTagInterceptor)
  @ApiOperation({ operationId: 'getProperty', summary: 'Get a property', description: 'With every floor plan.' })
  @PROPERTY_ID
  @ApiEntityTag()
  @ApiSuccess(200, PropertyResponse, 'The property.')
  @ApiErrorResponses([401, 404, 429, 503])
  get(@ClientId() clientId: number, @Param('id') id: string): Promise<PropertyResponse> {
    return this.backends.properties(PROPERTIES.GET, propertyRefFromPath(clientId, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateProperty',
    summary: 'Change a property',
    description:
      'Changes the fields given, each checked as on create; the rest keep their values. Floor plans keep their ' +
      'names and are changed through the Floor Plans API. Changes made at the same time are all kept.',
  })
  @PROPERTY_ID
  @IF_MATCH_HEADER
  @ApiSuccess(200, PropertyResponse, 'The property as changed.')
  @ApiErrorResponses([400, 401, 404, 412, 413, 415, 422, 429, 503], { 422: UPDATE_422 })
  update(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Body(new ContractPipe(UpdatePropertyRequest), new PlainTextPipe(['property.name'])) request: UpdatePropertyRequest,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<PropertyResponse> {
    const message: UpdatePropertyMessage = { ...propertyRefFromPath(clientId, id), request, if_match: ifMatch };
    return this.backends.properties(PROPERTIES.UPDATE, message);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'deleteProperty',
    summary: 'Delete a property',
    description: 'Its id is never used again; applying to it afterwards is refused.',
  })
  @PROPERTY_ID
  @IF_MATCH_HEADER
  @ApiSuccess(200, PropertyResponse, 'The representation the property had.')
  @ApiErrorResponses([401, 404, 412, 429, 503])
  async delete(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<PropertyResponse> {
    const message: DeletePropertyMessage = { ...propertyRefFromPath(clientId, id), if_match: ifMatch };
    const deleted = await this.backends.properties<PropertyResponse>(PROPERTIES.DELETE, message);
    // Before the DELETE is answered, no create under way may keep an application for the property:
    // the applications service looks at the fence after it stores one.
    const fence: PropertyRefMessage = { client_id: clientId, id: deleted.property.id };
    await this.backends.applications(APPLICATIONS.FENCE_PROPERTY, fence);
    return deleted;
  }
}
