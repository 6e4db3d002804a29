import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  ApplicationResponse,
  APPLICATIONS,
  ContractPipe,
  CreateApplicationRequest,
  IdempotencyKeyPipe,
  requireClientId,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { ApplicationsService } from './applications.service';
import { OpenSealedApplicantPipe } from './open-sealed-applicant.pipe';

@Controller()
export class ApplicationsMessageController {
  constructor(private readonly applications: ApplicationsService) {}

  @MessagePattern(APPLICATIONS.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Payload(OpenSealedApplicantPipe, new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<ApplicationResponse> {
    const scope = { key, messageId: messageIdOf(context.getMessage()) };
    return { application: await this.applications.create(requireClientId(clientId), request.application, scope) };
  }
}
