import { Eta } from 'eta';
import { MessageKind } from '@app/contracts';

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
  `<% } else { %>You are invited to apply for <%= it.property_name %>.<% } %>`;
const INVITED_HTML =
  `<% if (it.added_by) { %><%= it.added_by %> added you to their application for <strong><%= it.property_name %></strong>.` +
  `<% } else { %>You are invited to apply for <strong><%= it.property_name %></strong>.<% } %>`;
const PRIVATE_LINK = 'The link is yours alone: please do not forward this message.';

const TEMPLATES: Record<MessageKind, Template> = {
  invitation: {
    subject: (data) =>
      data.added_by
        ? `${data.added_by} added you to their application for ${data.property_name}`
        : `You are invited to apply for ${data.property_name}`,
    text:
      `${GREETING_TEXT}\n\n${INVITED_TEXT} Your own application form is here:\n\n` +
      `<%= it.url %>\n\n${PRIVATE_LINK}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>${INVITED_HTML} ` +
      `Your own application form is here:</p>${LINK_HTML}<p>${PRIVATE_LINK}</p>${SIGNATURE_HTML}`,
  },
  confirmation: {
    subject: (data) => `We received your application for ${data.property_name}`,
    text: `${GREETING_TEXT}\n\nThank you: your application for <%= it.property_name %> is complete and has been received.${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Thank you: your application for <strong><%= it.property_name %></strong> ` +
      `is complete and has been received.</p>${SIGNATURE_HTML}`,
  },
  reminder: {
    subject: (data) => `Your application for ${data.property_name} is not finished yet`,
    text:
      `${GREETING_TEXT}\n\nYour application for <%= it.property_name %> is not finished yet. ` +
      `Continue where you left off:\n\n<%= it.url %>\n\n${PRIVATE_LINK}${SIGNATURE_TEXT}\n`,
    html:
      `${GREETING_HTML}<p>Your application for <strong><%= it.property_name %></strong> is not finished yet. ` +
      `Continue where you left off:</p>${LINK_HTML}<p>${PRIVATE_LINK}</p>${SIGNATURE_HTML}`,
  },
};

const LAYOUT = (body: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title></head>' +
  `<body style="font-family: sans-serif; line-height: 1.5">${body}</body></html>`;

/** The HTML part escapes every value it shows; the text part shows them as they are, being text. */
const html = new Eta({ autoEscape: true, autoTrim: false, cache: true });
const text = new Eta({ autoEscape: false, autoTrim: false, cache: true });

/** Subject, text and HTML parts of a message of `kind`. */
export function renderMessage(kind: MessageKind, data: MessageData): MailContent {
  const template = TEMPLATES[kind];
  return {
    // A header is one line: a name with a line break in it must not start another header.
    subject: template.subject(data).replace(/[\r\n]+/g, ' '),
    text: text.renderString(template.text, data),
    html: LAYOUT(html.renderString(template.html, data)),
  };
}
