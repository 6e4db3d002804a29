import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApplicationResponse,
  APPLICATIONS,
  parseRequest,
  readApplicationRef,
  readIfMatch,
  UpdateApplicationMessage,
  UpdateApplicationRequest,
} from '@app/contracts';
import { ApplicationChangesService } from '../use-cases/application-changes.service';

/** PATCH of an application, as the gateway forwards it. */
@Controller()
export class ApplicationChangesMessageController {
  constructor(private readonly changes: ApplicationChangesService) {}

  @MessagePattern(APPLICATIONS.UPDATE)
  async update(@Payload() message: UpdateApplicationMessage): Promise<ApplicationResponse> {
    const { clientId, id } = readApplicationRef(message);
    const { application } = parseRequest(UpdateApplicationRequest, message.request);
    return { application: await this.changes.update(clientId, id, application, readIfMatch(message)) };
  }
}
