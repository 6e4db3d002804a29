/** Message patterns: the producer and the consumer import these, never a string literal. */
export const PROPERTIES = {
  CREATE: 'properties.create',
  GET: 'properties.get',
  DELETE: 'properties.delete',
  LIST: 'properties.list',
  UPDATE: 'properties.update',
  /** Asked by the applications service: does this client own this live property? */
  LOOKUP: 'properties.lookup',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'properties.ping',
} as const;

/** Floor plans live inside their property, so the properties service answers these too. */
export const FLOOR_PLANS = {
  LIST: 'floor_plans.list',
  CREATE: 'floor_plans.create',
  GET: 'floor_plans.get',
  UPDATE: 'floor_plans.update',
  DELETE: 'floor_plans.delete',
} as const;

export const APPLICATIONS = {
  CREATE: 'applications.create',
  GET: 'applications.get',
  LIST: 'applications.list',
  GET_APPLICANT: 'applications.applicants.get',
  ADD_APPLICANT: 'applications.applicants.add',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'applications.ping',
} as const;

/** Answered by the webhooks service: subscriptions and their deliveries. */
export const WEBHOOKS = {
  CREATE: 'webhooks.create',
  LIST: 'webhooks.list',
  GET: 'webhooks.get',
  DELETE: 'webhooks.delete',
  DELIVERIES: 'webhooks.deliveries',
  TEST: 'webhooks.test',
  REDELIVER: 'webhooks.redeliver',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'webhooks.ping',
} as const;

/** Base queue names; `queueName` adds the deployment's NAMESPACE. */
export const QUEUES = {
  PROPERTIES: 'properties',
  APPLICATIONS: 'applications',
  WEBHOOKS: 'webhooks',
} as const;

export function queueName(namespace: string, base: string): string {
  return `${namespace}${base}`;
}
