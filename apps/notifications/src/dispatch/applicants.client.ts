import { Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { APPLICATIONS, NotificationSubject, NotificationSubjectMessage, QUEUES } from '@app/contracts';
import { InjectQueueClient, sendRpc } from '@app/messaging';
import { NotificationsEnvironment } from '../config/notifications.environment';

/** The applications service, asked who an event's applicant is, what its form link is and what was decided. */
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
}
