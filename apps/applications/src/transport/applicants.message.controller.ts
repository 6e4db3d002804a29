import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  ApplicantResponse,
  APPLICATIONS,
  AUDIT_EVENTS,
  AuditEventListResponse,
  ListAuditEventsMessage,
  parseRequest,
  readApplicantRef,
  readIfMatch,
  readListAuditEvents,
  readSensitiveReader,
  RemoveApplicantMessage,
  SealedSensitiveApplicant,
  SensitiveApplicantMessage,
  UpdateApplicantMessage,
  UpdateApplicantRequest,
  readSuppressionLiftAudit,
  SuppressionLiftAuditMessage,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { ApplicantsService } from '../use-cases/applicants.service';

@Controller()
export class ApplicantsMessageController {
  constructor(
    private readonly applicants: ApplicantsService,
    private readonly audit: AuditEventsRepository,
  ) {}

  @MessagePattern(APPLICATIONS.UPDATE_APPLICANT)
  async update(@Payload() message: UpdateApplicantMessage): Promise<ApplicantResponse> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    const { applicant } = parseRequest(UpdateApplicantRequest, message.request);
    return { applicant: await this.applicants.update(clientId, applicationId, id, applicant, readIfMatch(message)) };
  }

  @MessagePattern(APPLICATIONS.REMOVE_APPLICANT)
  async remove(@Payload() message: RemoveApplicantMessage): Promise<ApplicantResponse> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    return { applicant: await this.applicants.remove(clientId, applicationId, id, readIfMatch(message)) };
  }

  @MessagePattern(APPLICATIONS.READ_SENSITIVE_DATA)
  readSensitive(@Payload() message: SensitiveApplicantMessage, @Ctx() context: RmqContext): Promise<SealedSensitiveApplicant> {
    const { clientId, applicationId, id } = readApplicantRef(message);
    const reader = readSensitiveReader(message);
    return this.applicants.readSensitive(clientId, applicationId, id, reader, messageIdOf(context.getMessage()));
  }

  @MessagePattern(AUDIT_EVENTS.LIST)
  async listAuditEvents(@Payload() message: ListAuditEventsMessage): Promise<AuditEventListResponse> {
    const { clientId, ...query } = readListAuditEvents(message);
    const page = await this.audit.list(clientId, query);
    return { audit_events: page.items, next_cursor: page.next_cursor };
  }

  @MessagePattern(AUDIT_EVENTS.RECORD_SUPPRESSION_LIFT)
  async recordSuppressionLift(@Payload() message: SuppressionLiftAuditMessage): Promise<{ recorded: true }> {
    const { clientId, requester } = readSuppressionLiftAudit(message);
    await this.audit.recordSuppressionLift(clientId, requester);
    return { recorded: true };
  }
}
