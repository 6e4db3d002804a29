import { Eta } from 'eta';
import { FastifyReply } from 'fastify';
import { FieldProblem } from '@app/contracts';
import { assetPath } from './static-assets';
import { VIEWS_DIR } from './views';

/** Everything a page template is given besides its own data. */
export interface PageFrame {
  title: string;
  /** Rendered for a frame on another site: links and forms keep `?iframe=true`. */
  iframe: boolean;
  /** The step's number on the steps, absent elsewhere. */
  step?: number;
  /** How many steps this applicant's form has. */
  steps?: number;
  /** The problems to list in the summary at the top, each linking to its field. */
  problems?: FieldProblem[];
}

/** The form's field problems, by field, for the messages shown beside each field. */
export function problemsByField(problems: FieldProblem[] = []): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of problems) byField[field] ??= message;
  return byField;
}

/** The id of a field's input, as the summary links to it. */
export function fieldId(field: string): string {
  return `field-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** One line of the summary of problems: the field's id and visible label (HTML as rendered), and what is wrong. */
export interface SummaryLine {
  id: string;
  label: string;
  message: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The summary of a page's problems, in the order their fields come on the page, each named as
 * its label shows it to the applicant (`Email address`, a question's own words), not by the API's
 * field name. `body` is the page as rendered: its labels, legends and the text of a checkbox.
 * A problem whose field the page does not show comes last, named after the field.
 */
export function summarize(body: string, problems: FieldProblem[] = []): SummaryLine[] {
  const lines = Object.entries(problemsByField(problems)).map(([field, message]) => {
    const id = escapeRegExp(fieldId(field));
    const at = body.search(new RegExp(`id="${id}"`));
    const own =
      new RegExp(`<label for="${id}">([^<]*)`).exec(body)?.[1] ??
      new RegExp(`<fieldset[^>]* id="${id}"[^>]*>\\s*<legend>([^<]*)`).exec(body)?.[1] ??
      new RegExp(`<input id="${id}"[^>]*>\\s*([^<]*)</label>`).exec(body)?.[1];
    // A whole list (`residences`) is named by its heading; a field of one of its entries
    // (`residences.1.from`) by the entry's legend as well, since every entry has a "Moved in".
    const heading = new RegExp(`<h2 id="${id}-heading">([^<]*)`).exec(body)?.[1];
    const entry = /\.\d+\./.test(field) && at >= 0 ? lastLegendBefore(body, at) : undefined;
    const label =
      (own !== undefined && entry !== undefined ? `${entry.trim()}: ${own.trim()}` : own) ??
      heading ??
      escapeHtml(field.replace(/^.*\./, '').replace(/_/g, ' '));
    return { line: { id: fieldId(field), label: label.trim(), message }, at: at < 0 ? Infinity : at };
  });
  return lines.sort((a, b) => a.at - b.at).map(({ line }) => line);
}

/** The text of the last `<legend>` that opens before `at` in `body`. */
function lastLegendBefore(body: string, at: number): string | undefined {
  return [...body.slice(0, at).matchAll(/<legend>([^<]*)/g)].pop()?.[1];
}

/** A phone number stored as its digits, as a page shows it and as its `tel:` link. */
export function phoneLink(digits: string): { text: string; href: string } {
  // Ten digits, or eleven after a 1, are a North American number: the one kind written here the
  // way people write it.
  const us = /^1?(\d{3})(\d{3})(\d{4})$/.exec(digits);
  if (us) return { text: `(${us[1]}) ${us[2]}-${us[3]}`, href: `tel:+1${us.slice(1).join('')}` };
  return { text: `+${digits}`, href: `tel:+${digits}` };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Renders the form's pages with Eta, which escapes every `<%= %>` output: nothing a property
 * owner or an applicant typed can become markup. Each page goes out with headers that keep it
 * from being cached, framed (except `?iframe=true` pages), or leaking its URL (an applicant's
 * link is a secret) in a Referer.
 */
export class Pages {
  private readonly eta = new Eta({ views: VIEWS_DIR, cache: true, autoEscape: true, autoTrim: false });

  constructor(private readonly frameAncestors: string) {}

  send(reply: FastifyReply, status: number, template: string, data: PageFrame & Record<string, unknown>): FastifyReply {
    const html = this.eta.render(template, {
      ...data,
      errors: problemsByField(data.problems),
      fieldId,
      summarize,
      phoneLink,
      assetPath,
      // A page that answers a POST (problems, a refusal, a list redrawn) is not a redirect; see history.js.
      answersPost: reply.request.method === 'POST',
    });
    return this.secure(reply, data.iframe).code(status).type('text/html; charset=utf-8').send(html);
  }

  /** A 303 to `location` (a form's next step), with the same headers as a page. */
  redirect(reply: FastifyReply, location: string, iframe: boolean): FastifyReply {
    return this.secure(reply, iframe).code(303).header('location', location).send();
  }

  private secure(reply: FastifyReply, iframe: boolean): FastifyReply {
    const ancestors = iframe ? this.frameAncestors : "'none'";
    return reply
      .header(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors ${ancestors}`,
      )
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store');
  }
}
