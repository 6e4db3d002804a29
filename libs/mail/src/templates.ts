import { Eta } from 'eta';
import {
  CONTROL_CHARACTER,
  DecisionCondition,
  DecisionStatus,
  DeclineReason,
  MessageKind,
  ScreeningAgency,
} from '@app/contracts';

/**
 * What a message may say: names, the property's name and a link. An applicant's SSN, date of
 * birth or documents are never among them, so no template can put them in a message.
 */
export interface MessageData {
  /** The addressee's first name; null when it is not known (an invitation to a property's form). */
  first_name: string | null;
  property_name: string;
  /** The addressee's own form link; null for a confirmation, which needs none. */
  url: string | null;
  /** Who the message is from: the client's sender_name, or null for none. */
  sender_name: string | null;
  /** For an invitation: the applicant whose form listed the addressee, by full name; null otherwise. */
  added_by?: string | null;
  /**
   * For an invitation to an application the addressee joins without having been listed on a form
   * (added through the API): its primary applicant, by full name; null otherwise.
   */
  joins?: string | null;
  /** For an invitation to a property's form: when its link stops working (ISO 8601); null otherwise. */
  expires_at?: string | null;
  /**
   * The page where the addressee can withdraw the application (its form link's withdraw page);
   * null where there is no application yet (an invitation to a property's form). A decline or a
   * withdrawal does not show it.
   */
  withdraw_url?: string | null;
  /**
   * Whether the addressee is a co-applicant or guarantor, whose withdraw page withdraws only its own
   * part in the application (the primary applicant's withdraws the application).
   */
  withdraws_own_part?: boolean;
  /** For a decision: what was decided, and the screening agency a decline on its report names. */
  decision?: DecisionData | null;
  /** The page where the addressee stops every e-mail to its address (List-Unsubscribe's); none in a preview. */
  unsubscribe_url?: string | null;
}

/** What a decision's message says of it: the reasons of a decline only as far as the notice needs them. */
export interface DecisionData {
  status: DecisionStatus;
  conditions: DecisionCondition[];
  reasons: DeclineReason[];
  /** The decider's note, told to the applicant (the API documents it so); null for none. */
  note: string | null;
  /** The client's screening agency (its settings); null when unset. */
  screening_agency: ScreeningAgency | null;
}

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Template {
  subject: (data: MessageData) => string;
  text: string;
  html: string;
}

const GREETING_TEXT = `Hello<% if (it.first_name) { %> <%= it.first_name %><% } %>,`;
const GREETING_HTML = `<p>Hello<% if (it.first_name) { %> <%= it.first_name %><% } %>,</p>`;
const SIGNATURE_TEXT = `<% if (it.sender_name) { %>\n\n<%= it.sender_name %><% } %>`;
const SIGNATURE_HTML = `<% if (it.sender_name) { %><p><%= it.sender_name %></p><% } %>`;
const LINK_HTML = `<p><a href="<%= it.url %>"><%= it.url %></a></p>`;
const INVITED_TEXT =
  `<% if (it.added_by) { %><%= it.added_by %> added you to their application for <%= it.property_name %>.` +
  `<% } else if (it.joins) { %>You are invited to join <%= it.joins %>’s application for <%= it.property_name %>.` +
  `<% } else { %>You are invited to apply for <%= it.property_name %>.<% } %>`;
const INVITED_HTML =
  `<% if (it.added_by) { %><%= it.added_by %> added you to their application for <strong><%= it.property_name %></strong>.` +
  `<% } else if (it.joins) { %>You are invited to join <%= it.joins %>’s application for <strong><%= it.property_name %></strong>.` +
  `<% } else { %>You are invited to apply for <strong><%= it.property_name %></strong>.<% } %>`;
const PRIVATE_LINK = 'The link is yours alone: please do not forward this message.';
/** it.validity is set by renderMessage from expires_at. */
const EXPIRY = `<% if (it.validity) { %>It works for <%= it.validity %>.<% } %>`;
const EXPIRY_TEXT = `<% if (it.validity) { %>\n\n${EXPIRY}<% } %>`;
const EXPIRY_HTML = `<% if (it.validity) { %><p>${EXPIRY}</p><% } %>`;
const NOT_YOU = 'If you did not apply, or do not want these e-mails, ignore this one: nothing more will be sent here.';
const WITHDRAW =
  `<% if (it.withdraws_own_part) { %>No longer want to be part of this application? You can withdraw from it ` +
  `(the application goes on without you)<% } else { %>No longer want to rent there? You can withdraw the application<% } %>`;
const WITHDRAW_TEXT = `<% if (it.withdraw_url) { %>\n\n${WITHDRAW}:\n\n<%= it.withdraw_url %><% } %>`;
const WITHDRAW_HTML = `<% if (it.withdraw_url) { %><p>${WITHDRAW}: <a href="<%= it.withdraw_url %>"><%= it.withdraw_url %></a></p><% } %>`;

const TEMPLATES: Record<Exclude<MessageKind, 'decision'>, Template> = {
  address_confirmation: {
    subject: (data) => `Confirm your e-mail address for your application for ${data.property_name}`,
    text:
      `${GREETING_TEXT}\n\nThis address was given in an application for <%= it.property_name %>. Before anything more ` +
      `about it is sent here, please confirm that it is yours and that you want these e-mails:\n\n<%= it.url %>\n\n` +
      `${NOT_YOU}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>This address was given in an application for <strong><%= it.property_name %></strong>. ` +
      `Before anything more about it is sent here, please confirm that it is yours and that you want these e-mails:</p>` +
      `${LINK_HTML}<p>${NOT_YOU}</p>${SIGNATURE_HTML}`,
  },
  invitation: {
    subject: (data) =>
      data.added_by
        ? `${data.added_by} added you to their application for ${data.property_name}`
        : data.joins
          ? `You are invited to join ${data.joins}’s application for ${data.property_name}`
          : `You are invited to apply for ${data.property_name}`,
    text:
      `${GREETING_TEXT}\n\n${INVITED_TEXT} Your own application form is here:\n\n` +
      `<%= it.url %>${EXPIRY_TEXT}\n\n${PRIVATE_LINK}${WITHDRAW_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>${INVITED_HTML} ` +
      `Your own application form is here:</p>${LINK_HTML}${EXPIRY_HTML}<p>${PRIVATE_LINK}</p>${WITHDRAW_HTML}${SIGNATURE_HTML}`,
  },
  confirmation: {
    subject: (data) => `We received your application for ${data.property_name}`,
    text: `${GREETING_TEXT}\n\nThank you: your application for <%= it.property_name %> is complete and has been received.${WITHDRAW_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Thank you: your application for <strong><%= it.property_name %></strong> ` +
      `is complete and has been received.</p>${WITHDRAW_HTML}${SIGNATURE_HTML}`,
  },
  reminder: {
    subject: (data) => `Your application for ${data.property_name} is not finished yet`,
    text:
      `${GREETING_TEXT}\n\nYour application for <%= it.property_name %> is not finished yet. ` +
      `Continue where you left off:\n\n<%= it.url %>\n\n${PRIVATE_LINK}${WITHDRAW_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Your application for <strong><%= it.property_name %></strong> is not finished yet. ` +
      `Continue where you left off:</p>${LINK_HTML}<p>${PRIVATE_LINK}</p>${WITHDRAW_HTML}${SIGNATURE_HTML}`,
  },
};

/** it.condition_lines, it.notice and it.notice_date are set by renderMessage from the decision. */
const CONDITIONS_TEXT = `<% it.condition_lines.forEach((line) => { %>\n- <%= line %><% }) %>`;
const CONDITIONS_HTML = `<ul><% it.condition_lines.forEach((line) => { %><li><%= line %></li><% }) %></ul>`;
const REPLY = 'Reply to this e-mail with any question.';
/** it.note_line is set by renderMessage from the decision's note. */
const NOTE_TEXT = `<% if (it.note_line) { %>\n\n<%= it.note_line %><% } %>`;
const NOTE_HTML = `<% if (it.note_line) { %><p><%= it.note_line %></p><% } %>`;
/**
 * The adverse action notice (Fair Credit Reporting Act, section 615(a)) of a decline that rests
 * even partly on the screening report: the agency that supplied it, that the agency did not
 * decide, and the applicant's rights to a free copy within 60 days and to dispute it.
 */
const NOTICE_PARAGRAPHS = [
  `Notice of adverse action, <%= it.notice_date %>.`,
  `This decision was based in whole or in part on information in a consumer report from <% if (it.notice.agency) { %><%= it.notice.agency.name %>, <%= it.notice.agency.address %>, phone <%= it.notice.agency.phone %><% } else { %>a consumer reporting agency: reply to this e-mail for its name, address and phone number<% } %>.`,
  `<%= it.notice.subject %> did not make this decision and cannot tell you why it was made.`,
  `You have the right to get a free copy of your report from <%= it.notice.who %> if you ask for it within 60 days of receiving this notice.`,
  `You have the right to dispute with <%= it.notice.who %> the accuracy or completeness of any information in the report.`,
];
const NOTICE_TEXT = `<% if (it.notice) { %>${NOTICE_PARAGRAPHS.map((paragraph) => `\n\n${paragraph}`).join('')}<% } %>`;
const NOTICE_HTML = `<% if (it.notice) { %>${NOTICE_PARAGRAPHS.map((paragraph) => `<p>${paragraph}</p>`).join('')}<% } %>`;

const DECISION_TEMPLATES: Record<DecisionStatus, Template> = {
  approved: {
    subject: (data) => `Your application for ${data.property_name} is approved`,
    text: `${GREETING_TEXT}\n\nGood news: your application for <%= it.property_name %> is approved. We will be in touch about the lease. ${REPLY}${NOTE_TEXT}${WITHDRAW_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Good news: your application for <strong><%= it.property_name %></strong> is approved. ` +
      `We will be in touch about the lease. ${REPLY}</p>${NOTE_HTML}${WITHDRAW_HTML}${SIGNATURE_HTML}`,
  },
  conditionally_approved: {
    subject: (data) => `Your application for ${data.property_name} is approved on conditions`,
    text:
      `${GREETING_TEXT}\n\nYour application for <%= it.property_name %> is approved on these conditions:\n${CONDITIONS_TEXT}\n\n` +
      `To go ahead, reply to this e-mail to accept them, or to ask about them.${NOTE_TEXT}${WITHDRAW_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Your application for <strong><%= it.property_name %></strong> is approved on these conditions:</p>` +
      `${CONDITIONS_HTML}<p>To go ahead, reply to this e-mail to accept them, or to ask about them.</p>${NOTE_HTML}` +
      `${WITHDRAW_HTML}${SIGNATURE_HTML}`,
  },
  declined: {
    subject: (data) => `Your application for ${data.property_name}`,
    text: `${GREETING_TEXT}\n\nWe are sorry: your application for <%= it.property_name %> has not been approved.${NOTE_TEXT}${NOTICE_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>We are sorry: your application for <strong><%= it.property_name %></strong> has not been approved.</p>` +
      `${NOTE_HTML}${NOTICE_HTML}${SIGNATURE_HTML}`,
  },
  withdrawn: {
    subject: (data) => `Your application for ${data.property_name} is withdrawn`,
    text: `${GREETING_TEXT}\n\nYour application for <%= it.property_name %> is withdrawn. Nothing more is needed from you. ${REPLY}${NOTE_TEXT}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Your application for <strong><%= it.property_name %></strong> is withdrawn. ` +
      `Nothing more is needed from you. ${REPLY}</p>${NOTE_HTML}${SIGNATURE_HTML}`,
  },
};

/** Under every message that has one: where to stop them all, as its List-Unsubscribe header says. */
const UNSUBSCRIBE = 'To get no more e-mail from us at this address';
const UNSUBSCRIBE_TEXT = `<% if (it.unsubscribe_url) { %>\n--\n${UNSUBSCRIBE}: <%= it.unsubscribe_url %>\n<% } %>`;
const UNSUBSCRIBE_HTML = `<% if (it.unsubscribe_url) { %><hr><p><small>${UNSUBSCRIBE}: <a href="<%= it.unsubscribe_url %>"><%= it.unsubscribe_url %></a></small></p><% } %>`;

/** The HTML document around a message's body, titled with its subject (already escaped). */
const LAYOUT = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body style="font-family: sans-serif; line-height: 1.5">${body}</body></html>`;

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;
const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const NOTICE_DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0 });

/**
 * How long a link that expires at `expiresAt` works, seen from `now`: "7 days, until 5 December
 * 2026 at 08:10 UTC" (in hours when under two days, for a lifetime set that short).
 */
function validity(expiresAt: string, now: Date): string {
  const expires = new Date(expiresAt);
  const left = expires.getTime() - now.getTime();
  const hours = Math.max(1, Math.round(left / HOUR_MS));
  const span = left >= 2 * DAY_MS ? `${Math.round(left / DAY_MS)} days` : hours === 1 ? '1 hour' : `${hours} hours`;
  return `${span}, until ${EXPIRY_FORMAT.format(expires)} UTC`;
}

/** The HTML part escapes every value it shows; the text part shows them as they are, being text. */
const html = new Eta({ autoEscape: true, autoTrim: false, cache: true });
const text = new Eta({ autoEscape: false, autoTrim: false, cache: true });

/** Runs of the characters the API and the form refuse in a name (CONTROL_CHARACTER). */
const CONTROL_CHARACTERS = new RegExp(`${CONTROL_CHARACTER.source}+`, 'g');

/**
 * A value typed by someone else (a name, a property's name, a sender name) as one short line: its
 * control characters each a space, its white space collapsed, at most `max` characters. The API
 * and the form refuse such characters in these fields; this keeps a value stored before they did,
 * or sent by an older release, from carrying paragraphs and links into a message.
 */
export function oneLine(value: string, max = 100): string {
  const line = value.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function shownValues(data: MessageData): MessageData {
  const line = (value: string | null | undefined, max?: number) => (typeof value === 'string' ? oneLine(value, max) : value);
  return {
    ...data,
    first_name: line(data.first_name) ?? null,
    property_name: oneLine(data.property_name, 255),
    sender_name: line(data.sender_name) ?? null,
    added_by: line(data.added_by, 201),
    joins: line(data.joins, 201),
  };
}

/** A condition of a conditional approval in words, one line. */
function conditionLine(condition: DecisionCondition): string {
  const text = condition.text ? oneLine(condition.text, 500) : null;
  switch (condition.kind) {
    case 'deposit':
      return `A deposit of ${DOLLARS.format(condition.amount ?? 0)}${text ? `: ${text}` : ''}`;
    case 'guarantor':
      return `A guarantor${text ? `: ${text}` : ''}`;
    case 'co_signer':
      return `A co-signer${text ? `: ${text}` : ''}`;
    default:
      return text ?? 'As we will tell you';
  }
}

/**
 * Whether the decision's message carries the adverse action notice (a decline on the screening
 * report): a notice the law requires, which the suppression list does not stop.
 */
export function carriesAdverseActionNotice(decision: DecisionData | null | undefined): decision is DecisionData {
  return decision?.status === 'declined' && decision.reasons.includes('screening_report');
}

/** The adverse action notice's values, for a decline on the screening report; null for any other decision. */
function adverseActionNotice(decision: DecisionData | null | undefined) {
  if (!carriesAdverseActionNotice(decision)) return null;
  const given = decision.screening_agency;
  const agency = given && {
    name: oneLine(given.name, 200),
    address: oneLine(given.address, 300),
    phone: oneLine(given.phone, 40),
  };
  return { agency, who: agency?.name ?? 'the agency', subject: agency?.name ?? 'The agency' };
}

/** Subject, text and HTML parts of a message of `kind`, made at `now`. */
export function renderMessage(kind: MessageKind, given: MessageData, now = new Date()): MailContent {
  if (kind === 'decision' && !given.decision) throw new Error('a decision message needs its decision');
  const template = kind === 'decision' ? DECISION_TEMPLATES[given.decision!.status] : TEMPLATES[kind];
  const data = shownValues(given);
  const values = {
    ...data,
    validity: data.expires_at ? validity(data.expires_at, now) : null,
    condition_lines: (data.decision?.conditions ?? []).map(conditionLine),
    notice: adverseActionNotice(data.decision),
    note_line: data.decision?.note ? oneLine(data.decision.note, 2000) : null,
    notice_date: NOTICE_DATE_FORMAT.format(now),
  };
  // A header is one line: a name with a line break in it must not start another header.
  const subject = template.subject(data).replace(/[\r\n]+/g, ' ');
  return {
    subject,
    text: text.renderString(template.text + UNSUBSCRIBE_TEXT, values),
    html: LAYOUT(
      html.renderString('<%= it.subject %>', { subject }),
      html.renderString(template.html + UNSUBSCRIBE_HTML, values),
    ),
  };
}
