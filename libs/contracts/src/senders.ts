import {
  APPLICATION_FORMS,
  APPLICATIONS,
  AUDIT_EVENTS,
  DOCUMENTS,
  FLOOR_PLANS,
  FORM_PRESET_PATTERNS,
  INVITATIONS,
  NOTIFICATIONS,
  PROPERTIES,
  WEBHOOKS,
} from './patterns';

/** The apps that ask the services something, each as a role a deployment gives a broker user. */
export const SENDER_ROLES = ['gateway', 'form', 'applications', 'notifications'] as const;
export type SenderRole = (typeof SENDER_ROLES)[number];

type ValueOf<T> = T[keyof T];
/** Every message pattern a service answers. */
export type Pattern =
  | ValueOf<typeof PROPERTIES>
  | ValueOf<typeof FORM_PRESET_PATTERNS>
  | ValueOf<typeof INVITATIONS>
  | ValueOf<typeof FLOOR_PLANS>
  | ValueOf<typeof APPLICATIONS>
  | ValueOf<typeof AUDIT_EVENTS>
  | ValueOf<typeof APPLICATION_FORMS>
  | ValueOf<typeof DOCUMENTS>
  | ValueOf<typeof WEBHOOKS>
  | ValueOf<typeof NOTIFICATIONS>;

/** The readiness checks: the gateway's, and the form's of the two services it asks. */
const PINGED_BY: readonly SenderRole[] = ['gateway', 'form'];

/** Each pattern of `patterns` allowed to `roles`. */
function allowed<P extends Pattern>(roles: readonly SenderRole[], patterns: Record<string, P>): Record<P, readonly SenderRole[]> {
  return Object.fromEntries(Object.values(patterns).map((pattern) => [pattern, roles])) as Record<P, readonly SenderRole[]>;
}

/**
 * Who may send each pattern (with TRUSTED_SENDERS set; see senderRoles): the API's to the
 * gateway alone, the form's to the form, the lookups to the service that makes them. The form
 * serves anyone on the internet, so it must reach nothing but what an applicant does.
 */
export const PATTERN_SENDERS: Readonly<Record<Pattern, readonly SenderRole[]>> = {
  ...allowed(['gateway'], PROPERTIES),
  ...allowed(['gateway'], FORM_PRESET_PATTERNS),
  ...allowed(['gateway'], FLOOR_PLANS),
  ...allowed(['gateway'], APPLICATIONS),
  ...allowed(['gateway'], AUDIT_EVENTS),
  ...allowed(['gateway'], WEBHOOKS),
  ...allowed(['gateway'], NOTIFICATIONS),
  ...allowed(['form'], APPLICATION_FORMS),
  ...allowed(['form'], INVITATIONS),
  [INVITATIONS.CREATE]: ['gateway'],
  [PROPERTIES.GET]: ['gateway', 'applications'],
  [PROPERTIES.LOOKUP]: ['applications'],
  [PROPERTIES.FORM_GET]: ['form'],
  [PROPERTIES.PING]: PINGED_BY,
  [FORM_PRESET_PATTERNS.FORM_GET]: ['form'],
  [APPLICATIONS.NOTIFICATION_SUBJECT]: ['notifications'],
  [APPLICATIONS.PING]: PINGED_BY,
  [DOCUMENTS.LIST]: ['gateway'],
  [DOCUMENTS.READ]: ['gateway'],
  [DOCUMENTS.FORM_LIST]: ['form'],
  [DOCUMENTS.ADD]: ['form'],
  // The links in an e-mail are followed on the form's pages.
  [NOTIFICATIONS.CONFIRM_ADDRESS]: ['form'],
  [NOTIFICATIONS.UNSUBSCRIBE]: ['form'],
  [NOTIFICATIONS.DESCRIBE_LINK]: ['form'],
};
