import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  AddApplicantRequest,
  ApplicantRefMessage,
  ApplicantResponse,
  ApplicationListResponse,
  ApplicationRefMessage,
  ApplicationResponse,
  APPLICATIONS,
  ContractPipe,
  CreateApplicationRequest,
  IdempotencyKeyPipe,
  ApiKeyIdPipe,
  ListApplicationsMessage,
  NotificationSubject,
  NotificationSubjectMessage,
  PropertyRefMessage,
  readApplicantRef,
  readApplicationRef,
  readListApplications,
  readPropertyRef,
  requireClientId,
} from '@app/contracts';
import { Delivered, messageIdOf } from '@app/messaging';
import { ApplicationReadsService } from '../use-cases/application-reads.service';
import { ApplicationsService } from '../use-cases/applications.service';
import { OpenSealedApplicantPipe, OpenSealedCoApplicantPipe } from './open-sealed-applicant.pipe';

@Controller()
export class ApplicationsMessageController {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly reads: ApplicationReadsService,
  ) {}

  @MessagePattern(APPLICATIONS.CREATE)
  async create(
    @Payload('client_id') clientId: unknown,
    @Delivered(OpenSealedApplicantPipe, new ContractPipe(CreateApplicationRequest)) request: CreateApplicationRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<ApplicationResponse> {
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { application: await this.applications.create(requireClientId(clientId), request.application, scope) };
  }

  @MessagePattern(APPLICATIONS.GET)
  async get(@Payload() message: ApplicationRefMessage): Promise<ApplicationResponse> {
    const { clientId, id } = readApplicationRef(message);
    return { application: await this.reads.get(clientId, id) };
  }

  @MessagePattern(APPLICATIONS.LIST)
  async list(@Payload() message: ListApplicationsMessage): Promise<ApplicationListResponse> {
    const { clientId, ...query } = readListApplications(message);
    const page = await this.reads.list(clientId, query);
    return { applications: page.items, next_cursor: page.next_cursor };
  }

  @MessagePattern(APPLICATIONS.GET_APPLICANT)
  async getApplicant(@Payload() message: ApplicantRefMessage): Promise<ApplicantResponse> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    return { applicant: await this.reads.getApplicant(clientId, applicationId, id) };
  }

  @MessagePattern(APPLICATIONS.NOTIFICATION_SUBJECT)
  notificationSubject(@Payload() message: NotificationSubjectMessage): Promise<NotificationSubject | null> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    return this.reads.notificationSubject(clientId, applicationId, id);
  }

  /** The property was deleted: no application is created for it from now on. */
  @MessagePattern(APPLICATIONS.FENCE_PROPERTY)
  async fenceProperty(@Payload() message: PropertyRefMessage): Promise<{ fenced: true }> {
    const { clientId, id } = readPropertyRef(message);
    await this.applications.fenceProperty(clientId, id);
    return { fenced: true };
  }

  @MessagePattern(APPLICATIONS.ADD_APPLICANT)
  async addApplicant(
    @Payload('client_id') clientId: unknown,
    @Payload('application_id') applicationId: unknown,
    @Delivered(OpenSealedCoApplicantPipe, new ContractPipe(AddApplicantRequest)) request: AddApplicantRequest,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Payload('key_id', ApiKeyIdPipe) keyId: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<ApplicantResponse> {
    const { clientId: client, id } = readApplicationRef({ client_id: clientId as number, id: applicationId as number });
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { applicant: await this.applications.addApplicant(client, id, request.applicant, scope) };
  }
}
