import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AUDIT_EVENTS, AuditEventListResponse, listAuditEventsFromQuery } from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { ApiErrorResponses, ApiSuccess } from '../openapi/api-responses';
import { AUDIT_LIST_422 } from '../openapi/applicant-responses';
import { API_KEY_SCHEME } from '../openapi/openapi';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiPageQueries } from '../openapi/page-queries';

@ApiTags('audit events')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/audit_events')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class AuditEventsHttpController {
  constructor(private readonly backends: Backends) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: 'List audit events',
    description:
      'The caller’s record of reads of applicants’ sensitive data (action sensitive_data.read), newest first, a ' +
      'page at a time; of one applicant when applicant_id is given. Kept a year (AUDIT_RETENTION_DAYS).',
  })
  @ApiQuery({
    name: 'applicant_id',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'Only reads of this applicant.',
    example: 2,
  })
  @ApiPageQueries('Events')
  @ApiSuccess(200, AuditEventListResponse, 'A page of audit events, and the cursor of the next one.')
  @ApiErrorResponses([401, 422, 429, 503], { 422: AUDIT_LIST_422 })
  list(@ClientId() clientId: number, @Query() query: Record<string, unknown>): Promise<AuditEventListResponse> {
    return this.backends.applications(AUDIT_EVENTS.LIST, listAuditEventsFromQuery(clientId, query));
  }
}
