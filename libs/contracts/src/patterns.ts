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

/** Clients' form presets, kept by the properties service beside the properties that name them. */
export const FORM_PRESET_PATTERNS = {
  LIST: 'form_presets.list',
  CREATE: 'form_presets.create',
  /** The current version, or the one a message names. */
  GET: 'form_presets.get',
  UPDATE: 'form_presets.update',
  DELETE: 'form_presets.delete',
  /** Asked by the form: the preset a live property names, as the property's client sees it. */
  FORM_GET: 'form_presets.form.get',
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
  /**
   * Asked by the notifications service about an applicant an event names: whom to write to, its
   * own form link and whether it is to be invited. Answered to that service alone (PATTERN_SENDERS).
   */
  NOTIFICATION_SUBJECT: 'applications.applicants.notification_subject',
  /** Records a decision on an application (approved, conditionally approved, declined, withdrawn). */
  RECORD_DECISION: 'applications.decisions.record',
  /** The application's current decision. */
  GET_DECISION: 'applications.decisions.get',
  /** Every decision recorded on the application, newest first. */
  LIST_DECISIONS: 'applications.decisions.list',
  /** Erases the personal data of the application's applicants at once (an applicant asked); the erasure is audited. */
  ERASE_PERSONAL_DATA: 'applications.personal_data.erase',
  /** How long the client's decided applications keep their applicants' personal data. */
  GET_RETENTION_SETTINGS: 'applications.retention_settings.get',
  PUT_RETENTION_SETTINGS: 'applications.retention_settings.put',
  /**
   * No application is created for the client's property from now on, whatever lookup a create under
   * way made: sent by the gateway once the property's DELETE succeeded, before it answers.
   */
  FENCE_PROPERTY: 'applications.properties.fence',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'applications.ping',
} as const;

/** The record of reads of applicants' sensitive data; the applications service keeps it. */
export const AUDIT_EVENTS = {
  LIST: 'audit_events.list',
  /** Records that a key lifted a suppression, before the notifications service is asked to. */
  RECORD_SUPPRESSION_LIFT: 'audit_events.suppression_lift',
} as const;

/** What the application form asks the applications service; an applicant is named by its form token's digest. */
export const APPLICATION_FORMS = {
  /** Step 1 at a property: a new application and its primary applicant, the form started. */
  START: 'application_forms.start',
  /** The applicant a form token names, with its application, or null. */
  FIND: 'application_forms.find',
  /** Step 1 again, or first for an applicant created through the API: contact details. */
  SAVE_CONTACT: 'application_forms.save_contact',
  /** The preset version the application is filled with, recorded once: the first one the form resolves. */
  RECORD_PRESET: 'application_forms.record_preset',
  /** Step 2: what the property's kind asks and the desired move-in. */
  SAVE_DETAILS: 'application_forms.save_details',
  /** One section step of the preset (identity, residence history...), saved on the applicant. */
  SAVE_SECTION: 'application_forms.save_section',
  /** The last step: consent and signature over the saved sections: the form completed. */
  COMPLETE: 'application_forms.complete',
  /**
   * An applicant withdraws on the form: the primary applicant the application (its decision becomes
   * withdrawn), a co-applicant or guarantor itself (its withdrawn_at is set).
   */
  WITHDRAW: 'application_forms.withdraw',
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
  ROTATE_SECRET: 'webhooks.rotate_secret',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'webhooks.ping',
} as const;

/** Answered by the notifications service: each client's e-mail settings and the messages sent. */
export const NOTIFICATIONS = {
  GET_SETTINGS: 'notifications.settings.get',
  PUT_SETTINGS: 'notifications.settings.put',
  LIST_MESSAGES: 'notifications.messages.list',
  /** Asked by the form: the address an e-mail's confirmation link was sent to is confirmed, and its held messages go. */
  CONFIRM_ADDRESS: 'notifications.addresses.confirm',
  /** Asked by the form: the address an e-mail's List-Unsubscribe link was sent to gets no more mail. */
  UNSUBSCRIBE: 'notifications.addresses.unsubscribe',
  /** Asked by the form: whom a link's e-mail went to (masked), and whether the link's time is over. */
  DESCRIBE_LINK: 'notifications.addresses.describe_link',
  /** Whether an address is suppressed for the client's mail, and since when. */
  GET_SUPPRESSION: 'notifications.suppressions.get',
  /** Lifts an address's suppression for the client's mail (its owner asked); audited by the gateway first. */
  LIFT_SUPPRESSION: 'notifications.suppressions.lift',
  /** Answered at once by any instance: the gateway's readiness check. */
  PING: 'notifications.ping',
} as const;

/** Base queue names; `queueName` adds the deployment's NAMESPACE. */
export const QUEUES = {
  PROPERTIES: 'properties',
  APPLICATIONS: 'applications',
  WEBHOOKS: 'webhooks',
  NOTIFICATIONS: 'notifications',
} as const;

export function queueName(namespace: string, base: string): string {
  return `${namespace}${base}`;
}
