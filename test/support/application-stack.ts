import { api, Api } from './http';
import { EventTap } from './events';
import { WebhookReceiver } from './webhook-receiver';
import { KEYS, Stack } from '../../tools/stack';

/**
 * What the suites about changing an application share: a stack with two applications instances
 * (so that changes of one application made at once meet in the database) and one webhooks
 * instance, an event tap, a webhook receiver, and a property of client one's.
 */
export interface ApplicationStack {
  stack: Stack;
  client: Api;
  tap: EventTap;
  receiver: WebhookReceiver;
  property: { id: number; floor_plans: Array<{ id: number }> };
}

/** Starts it; `lister` is client 3's key, which owns only what a suite's list test creates. */
export async function startApplicationStack(lister: string, propertyName: string): Promise<ApplicationStack> {
  const stack = await Stack.start({
    instances: { applications: 2, webhooks: 1 },
    env: {
      API_KEYS: `${KEYS.clientOne}:1,${KEYS.clientTwo}:2,${lister}:3`,
      EVENT_RELAY_INTERVAL_MS: '100',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    },
  });
  const client = api(stack.url);
  const tap = await EventTap.open(stack.namespace);
  const receiver = await WebhookReceiver.start();
  const property = (await client.post('/api/v2/properties', { property: { name: propertyName } })).body.property;
  return { stack, client, tap, receiver, property };
}

export async function stopApplicationStack({ receiver, tap, stack }: Partial<ApplicationStack>): Promise<void> {
  await receiver?.down();
  await tap?.close();
  await stack?.stop();
}

/** An application at `propertyId` with Ada Lovelace as its applicant, created with `key`: the answer's application. */
export async function applyAsAda(client: Api, propertyId: number, key?: string): Promise<any> {
  const applicant = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const answer = await client.post('/api/v2/applications', { application: { property_id: propertyId, applicant } }, { key });
  expect(answer.status).toBe(201);
  return answer.body.application;
}
