import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  applicationRefFromPath,
  APPLICATIONS,
  ContractPipe,
  DecisionListResponse,
  DecisionResponse,
  ErrorCode,
  MAX_DECISIONS,
  RecordDecisionMessage,
  RecordDecisionRequest,
  ServiceError,
} from '@app/contracts';
import { ApiKeyGuard, ClientId, Credential } from '../auth/api-key.guard';
import { ApiCredential } from '../auth/api-keys';
import { Backends } from '../backends/backends';
import { IdempotencyFields, IdempotencyKey } from '../http/idempotency-key.decorator';
import { IfMatch } from '../http/if-match.decorator';
import { ApiErrorResponses, ApiSuccess, errorBody } from '../openapi/api-responses';
import { APPLICATION_404 } from '../openapi/application-responses';
import { IF_MATCH_HEADER } from '../openapi/conditional-requests';
import { API_KEY_SCHEME, IDEMPOTENCY_KEY_HEADER } from '../openapi/openapi';
import { ApiPathId } from '../openapi/path-ids';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

const APPLICATION_ID = ApiPathId('id', 'The application’s id, a positive integer.');

const DECISION_404 = {
  description: `${APPLICATION_404.description} GET of the decision: also an application with no decision yet.`,
  examples: {
    ...APPLICATION_404.examples,
    undecided: errorBody('Nothing decided yet', 'application 7 has no decision yet'),
  },
};

const DECISION_409 = {
  description:
    `The application is archived (restore it first), or already has ${MAX_DECISIONS} decisions; also an Idempotency-Key whose ` +
    'first request is still being worked on.',
  examples: {
    archived: errorBody('Archived', 'application 7 is archived; restore it (PATCH archived: false) before deciding on it'),
  },
};

const NO_AGENCY =
  'include screening_report, whose adverse action notice names the screening agency: set it first ' +
  '(PUT /api/v2/notification_settings with screening_agency)';

const DECISION_422 = {
  description:
    'Invalid input: the message names the first problem and details lists every one, unknown fields included. ' +
    'conditions go with conditionally_approved only (at least one), reasons with declined only (at least one); ' +
    'a deposit condition needs its amount, an other condition its text, an other reason a note; a decline on ' +
    'screening_report needs the screening agency in the notification settings.',
  examples: {
    invalid: errorBody('Bad status', 'decision.status must be one of approved, conditionally_approved, declined, withdrawn', [
      { field: 'decision.status', message: 'must be one of approved, conditionally_approved, declined, withdrawn' },
    ]),
    reasons: errorBody('Decline without a reason', 'decision.reasons must list at least one reason for declined', [
      { field: 'decision.reasons', message: 'must list at least one reason for declined' },
    ]),
    agency: errorBody('A decline on the screening report, no agency set', `decision.reasons ${NO_AGENCY}`, [
      { field: 'decision.reasons', message: NO_AGENCY },
    ]),
  },
};

/** An application's decision (approved, conditionally approved, declined, withdrawn) and its history. */
@ApiTags('applications')
@ApiBearerAuth(API_KEY_SCHEME)
@ApiHeader({ name: 'X-Request-Id', required: false, description: 'Names the request in the logs; returned as is.' })
@Controller('api/v2/applications')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class DecisionsHttpController {
  constructor(private readonly backends: Backends) {}

  @Post(':id/decision')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'recordDecision',
    summary: 'Decide on an application',
    description:
      'Records the decision: approved, conditionally_approved (with its conditions), declined (with its reasons) ' +
      'or withdrawn. It replaces the current one, which stays in the history; the application’s status becomes its ' +
      'status. Not on an archived application (409). Publishes application.decided, and e-mails every applicant and ' +
      'guarantor: a decline on screening_report carries the adverse action notice, naming the screening agency of ' +
      'the notification settings.',
  })
  @APPLICATION_ID
  @IF_MATCH_HEADER
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiSuccess(201, DecisionResponse, 'The decision as recorded.')
  @ApiErrorResponses([400, 401, 404, 409, 412, 413, 415, 422, 429, 503], {
    404: APPLICATION_404,
    409: DECISION_409,
    422: DECISION_422,
  })
  async record(
    @Credential() credential: ApiCredential,
    @Param('id') id: string,
    @Body(new ContractPipe(RecordDecisionRequest)) request: RecordDecisionRequest,
    @IfMatch() ifMatch: string | undefined,
    @IdempotencyKey() idempotency: IdempotencyFields,
  ): Promise<DecisionResponse> {
    if (request.decision.status === 'declined' && request.decision.reasons?.includes('screening_report')) {
      await this.requireScreeningAgency(credential.clientId);
    }
    // key_id names the decider whether or not an Idempotency-Key came (IdempotencyFields names it only with one).
    const message: RecordDecisionMessage = {
      ...applicationRefFromPath(credential.clientId, id),
      request,
      if_match: ifMatch,
      idempotency_key: idempotency.idempotency_key,
      key_id: credential.keyId,
    };
    return this.backends.applications(APPLICATIONS.RECORD_DECISION, message);
  }

  /** A decline on the screening report is told with the agency's details: refused while none is set. */
  private async requireScreeningAgency(clientId: number): Promise<void> {
    const { notification_settings: settings } = await this.backends.notificationSettings(clientId);
    if (!settings.screening_agency) {
      throw new ServiceError(ErrorCode.VALIDATION_FAILED, `decision.reasons ${NO_AGENCY}`, [
        { field: 'decision.reasons', message: NO_AGENCY },
      ]);
    }
  }

  @Get(':id/decision')
  @ApiOperation({
    operationId: 'getDecision',
    summary: 'Get an application’s decision',
    description: 'The current decision; 404 while none was recorded.',
  })
  @APPLICATION_ID
  @ApiSuccess(200, DecisionResponse, 'The current decision.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: DECISION_404 })
  current(@ClientId() clientId: number, @Param('id') id: string): Promise<DecisionResponse> {
    return this.backends.applications(APPLICATIONS.GET_DECISION, applicationRefFromPath(clientId, id));
  }

  @Get(':id/decisions')
  @ApiOperation({
    operationId: 'listDecisions',
    summary: 'List an application’s decisions',
    description: 'Every decision recorded on the application, newest first (the first is the current one); empty while none was.',
  })
  @APPLICATION_ID
  @ApiSuccess(200, DecisionListResponse, 'The decisions, newest first.')
  @ApiErrorResponses([401, 404, 429, 503], { 404: APPLICATION_404 })
  history(@ClientId() clientId: number, @Param('id') id: string): Promise<DecisionListResponse> {
    return this.backends.applications(APPLICATIONS.LIST_DECISIONS, applicationRefFromPath(clientId, id));
  }
}
