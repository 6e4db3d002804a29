import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload, RmqContext } from '@nestjs/microservices';
import {
  ApplicationRefMessage,
  APPLICATIONS,
  DecisionListResponse,
  DecisionResponse,
  IdempotencyKeyPipe,
  parseRequest,
  readApplicationRef,
  readDeciderKeyId,
  readIfMatch,
  FormApplicant,
  RecordDecisionMessage,
  RecordDecisionRequest,
  WithdrawFormMessage,
  APPLICATION_FORMS,
} from '@app/contracts';
import { messageIdOf } from '@app/messaging';
import { DecisionsService } from '../use-cases/decisions.service';
import { FormSubmissionsService } from '../use-cases/form-submissions.service';
import { readLink, readSubmission } from './form-messages';

/** Decisions on applications, as the gateway forwards them, and the applicant's own withdrawal on the form. */
@Controller()
export class DecisionsMessageController {
  constructor(
    private readonly decisions: DecisionsService,
    private readonly submissions: FormSubmissionsService,
  ) {}

  @MessagePattern(APPLICATION_FORMS.WITHDRAW)
  async withdraw(@Payload() message: WithdrawFormMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const submission = readSubmission(message);
    return this.submissions.once(submission, link, () => this.decisions.withdrawOnForm(link, submission));
  }

  @MessagePattern(APPLICATIONS.RECORD_DECISION)
  async record(
    @Payload() message: RecordDecisionMessage,
    @Payload('idempotency_key', IdempotencyKeyPipe) key: string | undefined,
    @Ctx() context: RmqContext,
  ): Promise<DecisionResponse> {
    const { clientId, id } = readApplicationRef(message);
    const keyId = readDeciderKeyId(message);
    const { decision } = parseRequest(RecordDecisionRequest, message.request);
    // The claim of an Idempotency-Key is the deciding API key's own, as a create's is.
    const scope = { key, keyId, messageId: messageIdOf(context.getMessage()) };
    return { decision: await this.decisions.record(clientId, id, decision, { keyId }, scope, readIfMatch(message)) };
  }

  @MessagePattern(APPLICATIONS.GET_DECISION)
  async current(@Payload() message: ApplicationRefMessage): Promise<DecisionResponse> {
    const { clientId, id } = readApplicationRef(message);
    return { decision: await this.decisions.current(clientId, id) };
  }

  @MessagePattern(APPLICATIONS.LIST_DECISIONS)
  async history(@Payload() message: ApplicationRefMessage): Promise<DecisionListResponse> {
    const { clientId, id } = readApplicationRef(message);
    return { decisions: await this.decisions.history(clientId, id) };
  }
}
