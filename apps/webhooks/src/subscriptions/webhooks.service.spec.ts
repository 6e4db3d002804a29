import { MAX_WEBHOOK_SUBSCRIPTIONS } from '@app/contracts';
import { SubscriptionStore, SubscriptionSummary } from './subscription-store';
import { WebhooksService } from './webhooks.service';

describe('WebhooksService.list', () => {
  const subscription = (id: number): SubscriptionSummary => ({
    _id: `webhook:${id}`,
    id,
    client_id: 1,
    url: 'https://example.com/hooks',
    events: ['property.created'],
    created_at: new Date('2026-11-25T10:00:00Z'),
    deleted_at: null,
    request_key: `key:${id}`,
  });

  it(`lists the newest ${MAX_WEBHOOK_SUBSCRIPTIONS} webhooks at most, even when a client had more before slots held it to its limit`, async () => {
    // Newest first, as the store keeps them.
    const stored = Array.from({ length: MAX_WEBHOOK_SUBSCRIPTIONS + 3 }, (_, i) =>
      subscription(MAX_WEBHOOK_SUBSCRIPTIONS + 3 - i),
    );
    const subscriptions = {
      listLive: async () => stored,
    } as unknown as SubscriptionStore;
    // Listing needs the store alone.
    const none = undefined as never;
    const service = new WebhooksService(subscriptions, none, none, none, none, none);
    const listed = await service.list(1);
    expect(listed).toHaveLength(MAX_WEBHOOK_SUBSCRIPTIONS);
    expect(listed[0]).toEqual({
      id: MAX_WEBHOOK_SUBSCRIPTIONS + 3,
      url: 'https://example.com/hooks',
      events: ['property.created'],
      created_at: '2026-11-25T10:00:00+00:00',
    });
  });
});
