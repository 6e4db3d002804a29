import { Injectable } from '@nestjs/common';
import {
  CreatedWebhookRepresentation,
  DeliveryPosition,
  DeliveryRepresentation,
  DomainEventName,
  ErrorCode,
  formatTimestamp,
  MAX_WEBHOOK_SUBSCRIPTIONS,
  newEventId,
  Page,
  ServiceError,
  WebhookInput,
  WebhookRepresentation,
} from '@app/contracts';
import { CreateScope, documentKey, Idempotency } from '@app/persistence';
import { WebhooksEnvironment } from '../config/webhooks.environment';
import { deliveryKey, DeliveryStore, MAX_REDELIVERIES } from '../deliveries/delivery-store';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { newSigningSecret } from '../deliveries/signature';
import { resolveTarget, TargetRefused } from '../deliveries/target-guard';
import { NoFreeSlot, ownerOf, SubscriptionRecord, SubscriptionStore, toWebhookRepresentation } from './subscription-store';
import { StoredSecret, WebhookSecrets } from './webhook-secrets';

/** A create's outcome as the idempotency store keeps it: the secret sealed (in clear in outcomes kept before). */
type SealedWebhook = WebhookRepresentation & { secret: StoredSecret };

@Injectable()
export class WebhooksService {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveries: DeliveryStore,
    private readonly worker: DeliveryWorker,
    private readonly idempotency: Idempotency,
    private readonly env: WebhooksEnvironment,
    private readonly secrets: WebhookSecrets,
  ) {}

  /**
   * Subscribes the URL, once per request. The answer, and a replay of it for the same
   * Idempotency-Key, are the only ones that show the secret (besides a rotation's): the outcome
   * kept for replays holds it sealed, as the subscription does.
   */
  async create(
    clientId: number,
    input: WebhookInput,
    scope: Omit<CreateScope, 'clientId' | 'body'>,
  ): Promise<CreatedWebhookRepresentation> {
    const created = await this.idempotency.run(
      { ...scope, clientId, body: input },
      async (requestKey): Promise<SealedWebhook> => {
        await this.checkTarget(input.url);
        // A retry takes the id its first try chose, if that one got as far as claiming a slot.
        const id = await this.subscriptions.idFor(clientId, requestKey);
        const stored = await this.withRoom(() =>
          this.subscriptions.insertOnce({
            _id: documentKey(id),
            id,
            client_id: clientId,
            url: input.url,
            events: input.events,
            secret: newSigningSecret(),
            created_at: new Date(),
            deleted_at: null,
            request_key: requestKey,
          }),
        );
        return { ...toWebhookRepresentation(stored), secret: this.secrets.seal(stored.secret, ownerOf(stored)) };
      },
    );
    return { ...created, secret: this.secrets.open(created.secret, { clientId, webhookId: created.id }) };
  }

  /**
   * Gives the subscription a new signing secret, shown in this answer only; every attempt from
   * now on, retries of earlier deliveries included, is signed with it, and the old one with none.
   */
  async rotateSecret(clientId: number, id: number): Promise<CreatedWebhookRepresentation> {
    const subscription = await this.owned(clientId, id);
    const secret = newSigningSecret();
    if (!(await this.subscriptions.replaceSecret(subscription, secret))) throw ServiceError.notFound('webhook', id);
    return { ...toWebhookRepresentation(subscription), secret };
  }

  /** The client's live webhooks, newest first; bounded, even for a client given more than its limit before slots. */
  async list(clientId: number): Promise<WebhookRepresentation[]> {
    return (await this.subscriptions.listLive(clientId)).slice(0, MAX_WEBHOOK_SUBSCRIPTIONS).map(toWebhookRepresentation);
  }

  async get(clientId: number, id: number): Promise<WebhookRepresentation> {
    return toWebhookRepresentation(await this.owned(clientId, id));
  }

  /** Unsubscribes: no attempt is made after this, queued retries included. */
  async delete(clientId: number, id: number): Promise<WebhookRepresentation> {
    const subscription = await this.owned(clientId, id);
    await this.subscriptions.markDeleted(subscription, new Date());
    return toWebhookRepresentation(subscription);
  }

  async listDeliveries(
    clientId: number,
    id: number,
    limit: number,
    after?: DeliveryPosition,
  ): Promise<Page<DeliveryRepresentation>> {
    await this.owned(clientId, id);
    if (!after || 'position' in after) return this.deliveries.page(id, limit, after?.position);
    // A cursor handed out before deliveries had positions names the last delivery of its page.
    const position = await this.deliveries.positionOf(deliveryKey(id, after.id));
    if (position === undefined) {
      const message = 'is a cursor of an earlier version whose delivery is gone: start again from the first page';
      throw new ServiceError(ErrorCode.VALIDATION_FAILED, `cursor ${message}`, [{ field: 'cursor', message }]);
    }
    return this.deliveries.page(id, limit, position);
  }

  /** Delivers a `test_mode: true` event of the first kind the subscription takes, as any other is delivered. */
  async test(clientId: number, id: number): Promise<DeliveryRepresentation> {
    const subscription = await this.owned(clientId, id);
    const eventId = newEventId();
    const body = {
      id: eventId,
      event: subscription.events[0] as DomainEventName,
      test_mode: true,
      created_at: formatTimestamp(new Date()),
      data: {},
    };
    await this.worker.enqueue(id, clientId, body);
    return (await this.deliveries.representation(deliveryKey(id, eventId)))!;
  }

  /** Makes one more attempt of a delivery now, whatever its state, up to MAX_REDELIVERIES times; it keeps its webhook-id. */
  async redeliver(clientId: number, id: number, deliveryId: string): Promise<DeliveryRepresentation> {
    await this.owned(clientId, id);
    const key = deliveryKey(id, deliveryId);
    const delivery = await this.deliveries.representation(key);
    if (!delivery) throw ServiceError.notFound('delivery', deliveryId);
    if (!(await this.deliveries.claimRedelivery(key))) {
      throw ServiceError.conflict(`delivery ${deliveryId} cannot be redelivered more than ${MAX_REDELIVERIES} times`);
    }
    // Its retention starts again now, so that no purge removes it before the attempt is made.
    await this.deliveries.update(key);
    await this.worker.queue({ key, retry: 0, manual: true });
    return delivery;
  }

  private async owned(clientId: number, id: number): Promise<SubscriptionRecord> {
    const subscription = await this.subscriptions.findLive(clientId, id);
    if (!subscription) throw ServiceError.notFound('webhook', id);
    return subscription;
  }

  /**
   * Refuses a subscription past WEBHOOK_MAX_SUBSCRIPTIONS: each takes one of the client's slots,
   * claimed by an insert, so creates racing each other cannot pass the limit together.
   */
  private async withRoom<T>(store: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (error) {
      if (!(error instanceof NoFreeSlot)) throw error;
      const max = this.env.WEBHOOK_MAX_SUBSCRIPTIONS;
      throw ServiceError.conflict(`a client may have at most ${max} webhooks; delete one before adding another`);
    }
  }

  private async checkTarget(url: string): Promise<void> {
    try {
      await resolveTarget(url, this.env.allowPrivateUrls);
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      // A 503 is not kept as the Idempotency-Key's outcome: a retry looks the host up again.
      if (error.retryable) throw ServiceError.unavailable(`webhook.url ${error.message}`);
      const details = [{ field: 'webhook.url', message: error.message }];
      throw new ServiceError(ErrorCode.VALIDATION_FAILED, `webhook.url ${error.message}`, details);
    }
  }
}
