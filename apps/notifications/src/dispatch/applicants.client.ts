import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  APPLICATIONS,
  DecisionNotice,
  DecisionNoticeMessage,
  NotificationSubject,
  NotificationSubjectMessage,
  QUEUES,
} from '@app/contracts';
import { InjectQueueClient, sendRpc } from '@app/messaging';
import { NotificationsEnvironment } from '../config/notifications.environment';

/** The applications service, asked who an event's applicant is and what its form link is, and who hears of a decision. */
@Injectable()
export class ApplicantsClient {
  constructor(
    @InjectQueueClient(QUEUES.APPLICATIONS) private readonly applications: ClientProxy,
    private readonly env: NotificationsEnvironment,
  ) {}

  /** The applicant, or null when it is gone (removed, or its application is). */
  subject(clientId: number, applicationId: number, applicantId: number): Promise<NotificationSubject | null> {
    const message: NotificationSubjectMessage = { client_id: clientId, application_id: applicationId, id: applicantId };
    return sendRpc<NotificationSubject | null>(
      this.applications,
      APPLICATIONS.NOTIFICATION_SUBJECT,
      message,
      this.env.RPC_TIMEOUT_MS,
    );
  }

  /** The application's current decision and everyone on it, or null when it is gone or undecided. */
  decisionNotice(clientId: number, applicationId: number): Promise<DecisionNotice | null> {
    const message: DecisionNoticeMessage = { client_id: clientId, application_id: applicationId };
    return sendRpc<DecisionNotice | null>(this.applications, APPLICATIONS.DECISION_NOTICE, message, this.env.RPC_TIMEOUT_MS);
  }
}
