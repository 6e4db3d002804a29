import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApplicantSealer, ContractPipe } from '@app/common';
import {
  APPLICATIONS,
  ApplicationResponse,
  CreateApplicationMessage,
  CreateApplicationRequest,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { IdempotencyKey } from '../http/idempotency-key.decorator';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

@Controller('api/v2/applications')
@UseGuards(ApiKeyGuard, RateLimitGuard)
export class ApplicationsHttpController {
  constructor(
    private readonly backends: Backends,
    private readonly sealer: ApplicantSealer,
  ) {}

  @Post()
  @HttpCode(201)
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<ApplicationResponse> {
    // The applicant's id_number and dob leave this process only sealed.
    const message: CreateApplicationMessage = {
      client_id: clientId,
      ...this.sealer.seal(request),
      idempotency_key: idempotencyKey,
    };
    return this.backends.applications(APPLICATIONS.CREATE, message);
  }
}
