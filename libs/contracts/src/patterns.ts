/** Message patterns: the producer and the consumer import these, never a string literal. */
export const PROPERTIES = {
  CREATE: 'properties.create',
  GET: 'properties.get',
  DELETE: 'properties.delete',
  LIST: 'properties.list',
  UPDATE: 'properties.update',
  /** Asked by the applications service: does this client own this live property? */
  LOOKUP: 'properties.lookup',
  /** Asked by the application form, which has no client: a live property by id alone, or null. */
  FORM_GET: 'properties.form.get',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'properties.ping',
} as const;

/** Invitations to a property's form; the properties service keeps them. */
export const INVITATIONS = {
  CREATE: 'invitations.create',
  /** Asked by the form: is this token a usable invitation to this property? Its e-mail, or null. */
  CHECK: 'invitations.check',
  /** Asked by the form before it starts an application: uses the invitation up, once. */
  USE: 'invitations.use',
  /** Asked by the form when the start it used an invitation for failed: the invitation is usable again. */
  RELEASE: 'invitations.release',
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
  UPDATE: 'applications.update',
  GET_APPLICANT: 'applications.applicants.get',
  ADD_APPLICANT: 'applications.applicants.add',
  UPDATE_APPLICANT: 'applications.applicants.update',
  /** Removes a co-applicant or guarantor; never the primary applicant. */
  REMOVE_APPLICANT: 'applications.applicants.remove',
  /** An applicant with its sensitive data, for a key with the sensitive_data scope; the read is audited. */
  READ_SENSITIVE_DATA: 'applications.applicants.read_sensitive_data',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'applications.ping',
} as const;

/** The record of reads of applicants' sensitive data; the applications service keeps it. */
export const AUDIT_EVENTS = {
  LIST: 'audit_events.list',
} as const;

/** What the application form asks the applications service; an applicant is named by its form token's digest. */
export const APPLICATION_FORMS = {
  /** Step 1 at a property: a new application and its primary applicant, the form started. */
  START: 'application_forms.start',
  /** The applicant a form token names, with its application, or null. */
  FIND: 'application_forms.find',
  /** Step 1 again, or first for an applicant created through the API: contact details. */
  SAVE_CONTACT: 'application_forms.save_contact',
  /** Step 2: what the property's kind asks and the desired move-in. */
  SAVE_DETAILS: 'application_forms.save_details',
  /** Step 3: answers, date of birth, SSN, co-applicants, signature: the form completed. */
  COMPLETE: 'application_forms.complete',
} as const;

/** Applicants' documents: their records, kept by the applications service; the bytes in its GridFS bucket. */
export const DOCUMENTS = {
  /** Asked by the form: the documents of the applicant a form token names. */
  FORM_LIST: 'documents.form_list',
  /** Asked by the form once a file is stored: its record, refused past the limit per applicant. */
  ADD: 'documents.add',
  /** An applicant's documents, for the API. */
  LIST: 'documents.list',
  /** One document's record and where its bytes are, for a download; the read is audited. */
  READ: 'documents.read',
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
