import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { FORM_PRESETS, FormPresetListResponse } from '@app/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/** The presets ship with the service (libs/contracts), the same for every client: no service to ask. */
@ApiTags('form presets')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/form_presets')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class FormPresetsHttpController {
  @Get()
  @ApiOperation({
    operationId: 'listFormPresets',
    summary: 'List the form presets',
    description:
      'The questions and disclosures the online application form can show; a property’s form_preset_id picks one. ' +
      'The answers are returned as the applicant’s form_answers, by question id.',
  })
  @ApiSuccess(200, FormPresetListResponse, 'Every preset, by id.')
  @ApiErrorResponses([401, 429])
  list(): FormPresetListResponse {
    return { form_presets: [...FORM_PRESETS] };
  }
}
