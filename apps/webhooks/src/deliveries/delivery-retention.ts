import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { BackgroundPurge } from '@app/persistence';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { DeliveryStore } from './delivery-store';

/** How often each instance removes the deliveries past their retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Keeps the deliveries and attempts from growing without end: every instance removes, once an
 * hour, the finished deliveries unchanged for WEBHOOK_DELIVERY_RETENTION_DAYS, with their attempts
 * and list entries. It also lists the deliveries that an older version stored unlisted.
 */
@Injectable()
export class DeliveryRetention implements OnModuleInit, OnModuleDestroy {
  readonly purge: BackgroundPurge;

  constructor(deliveries: DeliveryStore, env: WebhooksEnvironment) {
    this.purge = new BackgroundPurge('deliveries past their retention', PURGE_EVERY_MS, () =>
      deliveries.purgeExpired(env.deliveryRetentionMs),
    );
    this.listing = new BackgroundPurge('deliveries stored before the lists', PURGE_EVERY_MS, () => deliveries.listUnlisted());
  }

  /** Lists the deliveries stored by an older version: at boot, in the background, and hourly after. */
  readonly listing: BackgroundPurge;

  onModuleInit(): void {
    this.purge.start();
    this.listing.start();
    void this.listing.run();
  }

  onModuleDestroy(): void {
    this.purge.stop();
    this.listing.stop();
  }
}
