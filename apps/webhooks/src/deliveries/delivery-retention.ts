import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { DeliveryStore } from './delivery-store';

/** How often each instance removes the deliveries past their retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Keeps the deliveries and attempts from growing without end: every instance removes, once an
 * hour, the finished deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS. Instances that purge
 * at once remove each delivery once; the timer is started at boot, outside any message's context.
 */
@Injectable()
export class DeliveryRetention implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryRetention');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly deliveries: DeliveryStore,
    private readonly env: WebhooksEnvironment,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async purge(): Promise<number> {
    try {
      const purged = await this.deliveries.purgeExpired(this.env.deliveryRetentionMs);
      if (purged > 0) this.logger.log(`removed ${purged} deliveries past their retention`);
      return purged;
    } catch (error) {
      this.logger.warn(`removing deliveries past their retention failed: ${String(error)}`);
      return 0;
    }
  }
}
