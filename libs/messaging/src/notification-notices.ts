import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { ConfirmChannel } from 'amqplib';
import { CommonEnvironment } from '@app/config';
import { InvitationNotice, NOTIFICATION_INVITATIONS_QUEUE, queueName } from '@app/contracts';
import { BrokerChannel } from './broker-channel';
import { queueOptions } from './rmq-options';

/**
 * Hands the notifications service what it must e-mail and cannot learn from the events: an
 * invitation's link, a secret that the events exchange (whose events reach integrators) must
 * never carry. The notice goes straight to the notifications service's private queue, persistent,
 * and `invitation` resolves only once the broker confirmed it, so the caller answers its request
 * only when the e-mail is sure to be sent; a publish that fails fails the request, to be made again.
 */
@Injectable()
export class NotificationNotices implements OnApplicationBootstrap, OnModuleDestroy {
  private broker?: BrokerChannel;
  private readonly queue: string;

  constructor(private readonly env: CommonEnvironment) {
    this.queue = queueName(env.NAMESPACE, NOTIFICATION_INVITATIONS_QUEUE);
  }

  onApplicationBootstrap(): void {
    this.broker = new BrokerChannel(this.env.AMQP_URL, 'notification-notices', (channel: ConfirmChannel) =>
      channel.assertQueue(this.queue, queueOptions(this.queue)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.broker?.close();
  }

  async invitation(notice: InvitationNotice): Promise<void> {
    await this.broker!.publish('', this.queue, notice, { messageId: notice.id });
  }
}
