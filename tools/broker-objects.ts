/**
 * The queues and exchanges the apps declare on the shared broker, by name without a stack's
 * namespace, and their removal once a suite is done with them.
 */
import { connect } from 'amqplib';

/** The notifications service's queues, each with its dead-letter route (its RPC queue is `notifications`). */
const NOTIFICATION_WORK_QUEUES = [
  'notifications',
  'notifications.events',
  'notifications.decisions',
  'notifications.invitations',
  'notifications.outgoing',
  'notifications.reminders',
];
/** Every work queue, each with its dead-letter queue `<queue>.dead-letter`. */
export const DEAD_LETTERED_QUEUES = [
  'properties',
  'applications',
  'webhooks',
  'webhooks.events',
  'webhooks.deliveries',
  ...NOTIFICATION_WORK_QUEUES,
];

/** The webhooks service's retry queues: one per distinct delay of its schedule. */
function webhookRetryQueues(env: NodeJS.ProcessEnv): string[] {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE ?? '5,300,1800,7200,18000,36000,36000,36000';
  return [...new Set(schedule.split(','))].map((seconds) => `webhooks.retry.${seconds}s`);
}

/** The webhooks service's wait queues, for attempts its gate held back: a second, and the breaker's open time. */
function webhookWaitQueues(env: NodeJS.ProcessEnv): string[] {
  const seconds = new Set(['1', env.WEBHOOK_BREAKER_OPEN_SECONDS ?? '30']);
  return [...seconds].map((wait) => `webhooks.deliveries.wait.${wait}s`);
}

/** The notifications service's delay queues: one per distinct retry delay, the reminders' wait and the holds'. */
function notificationDelayQueues(env: NodeJS.ProcessEnv): string[] {
  const schedule = env.MAIL_RETRY_SCHEDULE ?? '10,60,300,900,1800,3600,7200,14400,21600,21600,14400';
  const ms = (hours: string) => Math.max(1, Math.round(Number(hours) * 3600 * 1000));
  return [
    ...[...new Set(schedule.split(','))].map((seconds) => `notifications.retry.${seconds}s`),
    `notifications.reminders.wait.${ms(env.REMINDER_AFTER_HOURS ?? '24')}ms`,
    `notifications.held.wait.${ms(env.MAIL_HOLD_HOURS ?? '168')}ms`,
  ];
}

/**
 * Deletes every queue and exchange that apps running under `namespace` with `env` declare on the
 * shared broker: a suite leaves nothing of its own there.
 */
export async function removeBrokerObjects(namespace: string, env: NodeJS.ProcessEnv): Promise<void> {
  const connection = await connect(process.env.AMQP_URL!);
  try {
    const channel = await connection.createChannel();
    for (const queue of DEAD_LETTERED_QUEUES) {
      await channel.deleteQueue(`${namespace}${queue}`);
      await channel.deleteQueue(`${namespace}${queue}.dead-letter`);
      await channel.deleteExchange(`${namespace}${queue}.dead-letter-exchange`);
    }
    const backoffQueues = ['webhooks.events.backoff.10s', 'webhooks.deliveries.backoff.10s'];
    const delayQueues = [...webhookRetryQueues(env), ...webhookWaitQueues(env), ...notificationDelayQueues(env)];
    for (const queue of [...backoffQueues, ...delayQueues, 'events.unrouted']) {
      await channel.deleteQueue(`${namespace}${queue}`);
    }
    for (const service of ['properties', 'applications', 'webhooks', 'notifications']) {
      await channel.deleteExchange(`${namespace}${service}.requests`);
    }
    await channel.deleteExchange(`${namespace}events`);
    await channel.deleteExchange(`${namespace}events.unrouted`);
    await channel.close();
  } finally {
    await connection.close();
  }
}
