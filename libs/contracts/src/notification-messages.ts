import type { FormStatus } from './dto/applicant.dto';
import type { ApplicantType } from './dto/application.dto';
import type { DecisionCondition, DeclineReason } from './dto/decision.dto';
import type { DecisionStatus } from './dto/decision-status';
import { ClientScoped } from './messages';

/** Messages an applicant's list shows at most, newest first. */
export const MAX_LISTED_MESSAGES = 100;

/**
 * Base name of the queue on which the service that makes an invitation hands its link to the
 * notifications service (NAMESPACE prefixed). A private queue: the link is a secret, so it never
 * travels on the events exchange, whose events reach integrators.
 */
export const NOTIFICATION_INVITATIONS_QUEUE = 'notifications.invitations';

/** An invitation to a property's form to e-mail (`send_email: true`), with its link in clear. */
export interface InvitationNotice {
  /** Names the notice on every delivery of it: the message sent for it is claimed under it. */
  id: string;
  client_id: number;
  property_id: number;
  property_name: string;
  invitation_id: number;
  email: string;
  url: string;
  expires_at: string;
}

/** NOTIFICATIONS.PUT_SETTINGS: `request` is a PutNotificationSettingsRequest. */
export interface PutNotificationSettingsMessage extends ClientScoped {
  request: unknown;
}

/** APPLICATIONS.NOTIFICATION_SUBJECT and NOTIFICATIONS.LIST_MESSAGES: one applicant of the client. */
export interface NotificationSubjectMessage extends ClientScoped {
  application_id: number;
  id: number;
}

/**
 * The answer to APPLICATIONS.NOTIFICATION_SUBJECT: what an e-mail to the applicant needs, and
 * nothing of its personal data besides its name and address. Null when the applicant is gone.
 */
export interface NotificationSubject {
  client_id: number;
  application_id: number;
  applicant_id: number;
  type: ApplicantType;
  first_name: string;
  last_name: string;
  email: string;
  property_id: number;
  property_name: string;
  /** The applicant's own form link (a secret); null for one stored before links existed. */
  form_url: string | null;
  form_status: FormStatus;
  /** Whether it is to be invited by e-mail: asked for with send_email, or named on the form. */
  invite: boolean;
  /** The full name of the applicant whose form listed this one; null for one added otherwise. */
  added_by: string | null;
  /**
   * For a co-applicant or guarantor: the full name of the primary applicant, whose application it
   * joins; null for the primary. Optional: a release before this one does not send it, and its
   * answer is read as if it said null.
   */
  joins?: string | null;
  /**
   * The application's current decision, what its message says of it, and its place in the
   * history (1 for the first: a message is made once per decision and addressee); null while
   * undecided. Optional: a release before this one does not send it.
   */
  decision?: SubjectDecision | null;
  /**
   * Whether `email` was typed on the public form (by the applicant, or by the one who named it)
   * rather than given by the integrator: no mail but one goes there until the address is
   * confirmed. Optional: a release before this one does not send it, and is read as false.
   */
  email_from_form?: boolean;
  /** For one named on the form: the address of the applicant who named it (its invitations are capped by it). */
  added_by_email?: string | null;
}

/** NOTIFICATIONS.CONFIRM_ADDRESS and NOTIFICATIONS.UNSUBSCRIBE: the digest of a link's token from an e-mail. */
export interface AddressLinkMessage {
  token_digest: string;
}

/** The answer to an AddressLinkMessage: null when no e-mail carried the link. */
export interface AddressLinkAnswer {
  /** The property the message was about, to name on the page that answers. */
  property_name: string;
}

/** NOTIFICATIONS.DESCRIBE_LINK: what a link's page says before anything is asked (the form asks it). */
export interface AddressLinkDescriptionMessage extends AddressLinkMessage {
  purpose: 'confirm' | 'unsubscribe';
}

/** The answer to an AddressLinkDescriptionMessage: null when no e-mail carried the link. */
export interface AddressLinkDescription extends AddressLinkAnswer {
  /** The address the e-mail went to, masked (`d***@example.com`); null for a link made before it was kept. */
  mailbox: string | null;
  /** Whether the link's time (days after its e-mail was made) is over: following it does nothing. */
  expired: boolean;
  /** How many days a link works. */
  lifetime_days: number;
}

export interface SubjectDecision {
  status: DecisionStatus;
  conditions: DecisionCondition[];
  reasons: DeclineReason[];
  note: string | null;
  number: number;
}
