import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreateFloorPlanMessage,
  CreateFloorPlanRequest,
  FLOOR_PLANS,
  FloorPlanListResponse,
  floorPlanRefFromPath,
  FloorPlanResponse,
  FloorPlansMessage,
  MAX_FLOOR_PLANS,
  propertyRefFromPath,
  UpdateFloorPlanMessage,
  UpdateFloorPlanRequest,
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

const PROPERTY_ID = ApiPathId('pid', 'The property’s id, a positive integer.');
const FLOOR_PLAN_ID = ApiPathId('id', 'The floor plan’s id, a positive integer.');

const error = (summary: string, message: string, details: unknown = null) => ({
  summary,
  value: { error: { message, details } },
});

const NOT_FOUND = {
  description: 'No such property or floor plan: unknown, deleted, another client’s, or an id that is not a positive integer.',
  examples: {
    property: error('No such property', 'property 7 cannot be found'),
    floorPlan: error('No such floor plan', 'floor plan 9 cannot be found'),
  },
};

const invalid = (summary: string, field: string, message: string) => error(summary, `${field} ${message}`, [{ field, message }]);

const RULES = `A single_family property has exactly one floor plan, any other at most ${MAX_FLOOR_PLANS}, and every property keeps at least one.`;

@ApiTags('properties')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/properties/:pid/floor_plans')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class FloorPlansHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({ operationId: 'listFloorPlans', summary: 'List a property’s floor plans', description: 'Oldest first.' })
  @PROPERTY_ID
  @ApiSuccess(200, FloorPlanListResponse, 'Every floor plan of the property.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: NOT_FOUND })
  list(@ClientId() clientId: number, @Param('pid') propertyId: string): Promise<FloorPlanListResponse> {
    const { id } = propertyRefFromPath(clientId, propertyId);
    const message: FloorPlansMessage = { client_id: clientId, property_id: id };
    return this.backends.properties(FLOOR_PLANS.LIST, message);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createFloorPlan', summary: 'Add a floor plan', description: `Only name is required. ${RULES}` })
  @PROPERTY_ID
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, FloorPlanResponse, 'The floor plan as added; the property lists it from now on.')
  @ApiErrorResponses([400, 401, 404, 409, 413, 415, 422, 429, 503], {
    404: NOT_FOUND,
    422: {
      description: `Invalid input (details lists every problem, unknown fields included), a second floor plan for a single_family property, or one beyond ${MAX_FLOOR_PLANS}.`,
      examples: {
        invalid: invalid('Invalid fields', 'floor_plan.baths', 'must be at least 0'),
        singleFamily: invalid(
          'Single family',
          'floor_plan',
          'cannot be added: a single_family property has exactly one floor plan',
        ),
        full: invalid('Floor plans full', 'floor_plan', `cannot be added: a property has at most ${MAX_FLOOR_PLANS} floor plans`),
      },
    },
  })
  create(
    @ClientId() clientId: number,
    @Param('pid') propertyId: string,
    @Body(new ContractPipe(CreateFloorPlanRequest)) request: CreateFloorPlanRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<FloorPlanResponse> {
    const { id } = propertyRefFromPath(clientId, propertyId);
    const message: CreateFloorPlanMessage = { client_id: clientId, property_id: id, request, ...idempotency };
    return this.backends.properties(FLOOR_PLANS.CREATE, message);
  }

  @Get(':id')
  @UseInterceptors(EntityTagInterceptor)
  @ApiOperation({ operationId: 'getFloorPlan', summary: 'Get a floor plan' })
  @PROPERTY_ID
  @FLOOR_PLAN_ID
  @ApiEntityTag()
  @ApiSuccess(200, FloorPlanResponse, 'The floor plan.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: NOT_FOUND })
  get(@ClientId() clientId: number, @Param('pid') propertyId: string, @Param('id') id: string): Promise<FloorPlanResponse> {
    return this.backends.properties(FLOOR_PLANS.GET, floorPlanRefFromPath(clientId, propertyId, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateFloorPlan',
    summary: 'Change a floor plan',
    description: 'Changes the fields given, each checked as on create; the rest keep their values.',
  })
  @PROPERTY_ID
  @FLOOR_PLAN_ID
  @IF_MATCH_HEADER
  @ApiSuccess(200, FloorPlanResponse, 'The floor plan as changed.')
  @ApiErrorResponses([400, 401, 404, 412, 413, 415, 422, 429, 503], {
    404: NOT_FOUND,
    422: {
      description: 'Invalid input: the message names the first problem and details lists every one, unknown fields included.',
      examples: { invalid: invalid('Invalid fields', 'floor_plan.rent', 'must be a number') },
    },
  })
  update(
    @ClientId() clientId: number,
    @Param('pid') propertyId: string,
    @Param('id') id: string,
    @Body(new ContractPipe(UpdateFloorPlanRequest)) request: UpdateFloorPlanRequest,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<FloorPlanResponse> {
    const message: UpdateFloorPlanMessage = { ...floorPlanRefFromPath(clientId, propertyId, id), request, if_match: ifMatch };
    return this.backends.properties(FLOOR_PLANS.UPDATE, message);
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ operationId: 'deleteFloorPlan', summary: 'Delete a floor plan', description: RULES })
  @PROPERTY_ID
  @FLOOR_PLAN_ID
  @IF_MATCH_HEADER
  @ApiSuccess(200, FloorPlanResponse, 'The representation the floor plan had.')
  @ApiErrorResponses([401, 404, 412, 422, 429, 503], {
    404: NOT_FOUND,
    422: {
      description: 'The floor plan is the property’s only one.',
      examples: {
        last: invalid(
          'Only floor plan',
          'floor_plan',
          'cannot be deleted: it is the property’s only floor plan, and every property keeps at least one',
        ),
      },
    },
  })
  delete(
    @ClientId() clientId: number,
    @Param('pid') propertyId: string,
    @Param('id') id: string,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<FloorPlanResponse> {
    return this.backends.properties(FLOOR_PLANS.DELETE, { ...floorPlanRefFromPath(clientId, propertyId, id), if_match: ifMatch });
  }
}
