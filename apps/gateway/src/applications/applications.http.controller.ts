import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ContractPipe } from '@app/common';
import {
  APPLICATIONS,
  ApplicationResponse,
  CreateApplicationMessage,
  CreateApplicationRequest,
} from '@app/contracts';
import { ApiKeyGuard, ClientId } from '../auth/api-key.guard';
import { Backends } from '../backends/backends';
import { IdempotencyKey } from '../http/idempotency-key.decorator';

@Controller('api/v2/applications')
@UseGuards(ApiKeyGuard)
export class ApplicationsHttpController {
  constructor(private readonly backends: Backends) {}

  @Post()
  @HttpCode(201)
  create(
    @ClientId() clientId: number,
    @Body(new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
    @IdempotencyKey() idempotencyKey: string | undefined,
  ): Promise<ApplicationResponse> {
    const message: CreateApplicationMessage = { client_id: clientId, request, idempotency_key: idempotencyKey };
    return this.backends.applications(APPLICATIONS.CREATE, message);
  }
}
