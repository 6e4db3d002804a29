import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ContractPipe } from '@app/common';
import { APPLICATIONS, ApplicationResponse, CreateApplicationRequest, requireClientId } from '@app/contracts';
import { ApplicationsService } from './applications.service';
import { OpenSealedApplicantPipe } from './open-sealed-applicant.pipe';

@Controller()
export class ApplicationsMessageController {
  constructor(private readonly applications: ApplicationsService) {}

  @MessagePattern(APPLICATIONS.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Payload(OpenSealedApplicantPipe, new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
  ): Promise<ApplicationResponse> {
    return { application: await this.applications.create(requireClientId(clientId), request.application) };
  }
}
