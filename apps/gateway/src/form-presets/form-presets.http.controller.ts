import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ContractPipe,
  CreateFormPresetRequest,
  CreateMessage,
  DEFAULT_PAGE_SIZE,
  FORM_PRESET_PATTERNS,
  FormPresetPageResponse,
  FormPresetRefMessage,
  FormPresetResponse,
  formPresetRefFromPath,
  listFormPresetsFromQuery,
  MAX_PAGE_SIZE,
  UpdateFormPresetMessage,
  UpdateFormPresetRequest,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { EntityTagInterceptor } from '../http/entity-tag.interceptor';
import { IdempotencyFields, IdempotencyKey } from '../http/idempotency-key.decorator';
import { IfMatch } from '../http/if-match.decorator';
import { ApiErrorResponses, ApiSuccess, errorBody, REQUEST_ID } from '../openapi/api-responses';
import { ApiEntityTag, IF_MATCH_HEADER } from '../openapi/conditional-requests';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPathId } from '../openapi/path-ids';

const PRESET_ID = ApiPathId('id', 'The preset’s id, a positive integer: one of the caller’s presets or a shipped one.');

const PRESET_404 = {
  description: 'The id is not a positive integer, names no preset, a deleted one or another client’s; or no such version.',
  examples: { notFound: errorBody('No such preset', 'form preset 7 cannot be found') },
};

const SHIPPED_409 = errorBody(
  'A shipped preset',
  'form preset 1 ships with the service and cannot be changed; create a preset of your own instead',
);

const INVALID_PRESET_422 = {
  description:
    'Invalid input: the message names the first problem and details lists every one, unknown fields included. ' +
    'Besides each field’s own rules: a choice question needs options and only it may have options or multiple; a ' +
    'when names an earlier yes_no or choice question and an answer it can give; ids, sections and documents are ' +
    'each given once; years is for residence_history only.',
  examples: {
    invalid: errorBody('Invalid fields', 'form_preset.questions.1.when.question must name an earlier question of the preset', [
      { field: 'form_preset.questions.1.when.question', message: 'must name an earlier question of the preset' },
      {
        field: 'form_preset.sections.0.kind',
        message: 'must be one of identity, residence_history, employment, household, emergency_contact, documents, questions',
      },
    ]),
  },
};

@ApiTags('form presets')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/form_presets')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class FormPresetsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'listFormPresets',
    summary: 'List the form presets',
    description:
      'The caller’s own presets, newest first, then the presets that ship with the service (default: true), a page ' +
      'at a time. A property’s form_preset_id picks one; the answers are returned as the applicant’s form_answers, ' +
      'by question id.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    description: 'Presets per page.',
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    schema: { type: 'string' },
    description: 'The `next_cursor` of the previous page. A page may hold fewer than `limit` and still have one.',
  })
  @ApiSuccess(200, FormPresetPageResponse, 'A page of presets.')
  @ApiErrorResponses([401, 422, 429, 503], {
    422: {
      description: 'A `limit` or `cursor` that is not one this API accepts, or an unknown query parameter; details names each.',
      examples: {
        invalid: errorBody('Bad limit', 'limit must be an integer from 1 to 100', [
          { field: 'limit', message: 'must be an integer from 1 to 100' },
        ]),
      },
    },
  })
  list(@ClientId() clientId: number, @Query() query: Record<string, unknown>): Promise<FormPresetPageResponse> {
    return this.backends.properties(FORM_PRESET_PATTERNS.LIST, listFormPresetsFromQuery(clientId, query));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createFormPreset',
    summary: 'Create a form preset',
    description:
      'A preset of the caller’s own, at version 1: its questions, disclosures, the steps (sections) of the form and ' +
      'the documents it asks for. Only name is required. Limits: docs/integrators/api.md.',
  })
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, FormPresetResponse, 'The preset as created.')
  @ApiErrorResponses([400, 401, 409, 413, 415, 422, 429, 503], { 422: INVALID_PRESET_422 })
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreateFormPresetRequest)) request: CreateFormPresetRequest,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<FormPresetResponse> {
    const message: CreateMessage = { client_id: clientId, request, ...idempotency };
    return this.backends.properties(FORM_PRESET_PATTERNS.CREATE, message);
  }

  @Get(':id')
  @UseInterceptors(EntityTagInterceptor)
  @ApiOperation({
    operationId: 'getFormPreset',
    summary: 'Get a form preset',
    description:
      'Its current version, or with `version` an earlier one, as it was: an application keeps the version it was ' +
      'filled with.',
  })
  @PRESET_ID
  @ApiQuery({
    name: 'version',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'A version of the preset.',
  })
  @ApiEntityTag()
  @ApiSuccess(200, FormPresetResponse, 'The preset.')
  @ApiErrorResponses([401, 404, 422, 429, 503], {
    404: PRESET_404,
    422: {
      description: 'A `version` that is not a positive integer, or an unknown query parameter.',
      examples: {
        invalid: errorBody('Bad version', 'version must be a positive integer', [
          { field: 'version', message: 'must be a positive integer' },
        ]),
      },
    },
  })
  get(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<FormPresetResponse> {
    return this.backends.properties(FORM_PRESET_PATTERNS.GET, formPresetRefFromPath(clientId, id, query));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateFormPreset',
    summary: 'Change a form preset',
    description:
      'Changes the fields given, each checked as on create (a list given replaces the whole list), as the preset’s ' +
      'next version; the versions before stay readable with ?version=. A change that changes nothing makes no version.',
  })
  @PRESET_ID
  @IF_MATCH_HEADER
  @ApiSuccess(200, FormPresetResponse, 'The preset as changed, at its new version.')
  @ApiErrorResponses([400, 401, 404, 409, 412, 413, 415, 422, 429, 503], {
    404: PRESET_404,
    409: { description: 'The preset ships with the service: it cannot be changed.', examples: { shipped: SHIPPED_409 } },
    422: INVALID_PRESET_422,
  })
  update(
    @ClientId() clientId: number,
    @Param('id') id: string,
    @Body(new ContractPipe(UpdateFormPresetRequest)) request: UpdateFormPresetRequest,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<FormPresetResponse> {
    const message: UpdateFormPresetMessage = { ...formPresetRefFromPath(clientId, id), request, if_match: ifMatch };
    return this.backends.properties(FORM_PRESET_PATTERNS.UPDATE, message);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteFormPreset',
    summary: 'Delete a form preset',
    description:
      'Refused while a property of the caller’s names it. Its id is never used again; the applications filled ' +
      'with it keep the version they were filled with.',
  })
  @PRESET_ID
  @IF_MATCH_HEADER
  @ApiResponse({ status: 204, description: 'Deleted; no body.', headers: REQUEST_ID })
  @ApiErrorResponses([401, 404, 409, 412, 429, 503], {
    404: PRESET_404,
    409: {
      description: 'A property of the caller’s names the preset, or it ships with the service.',
      examples: {
        inUse: errorBody(
          'In use',
          'form preset 101 is the form_preset_id of property 12; give that property another preset before deleting it',
        ),
        shipped: errorBody(
          'A shipped preset',
          'form preset 1 ships with the service and cannot be deleted; create a preset of your own instead',
        ),
      },
    },
  })
  async delete(@ClientId() clientId: number, @Param('id') id: string, @IfMatch() ifMatch: string | undefined): Promise<void> {
    const message: FormPresetRefMessage = { ...formPresetRefFromPath(clientId, id), if_match: ifMatch };
    await this.backends.properties(FORM_PRESET_PATTERNS.DELETE, message);
  }
}
