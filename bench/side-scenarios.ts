/**
 * The scenarios that need apps the main stack does without: the application form. Each runs on
 * a stack of its own, started once the main scenarios are done and that stack is stopped, so that
 * these apps' background work never shows in the main scenarios' numbers, nor one side
 * scenario's in another's.
 */
import autocannon from 'autocannon';
import { driveHttp, Measurement } from './measure';
import { createProperty } from './scenarios';
import { ExtraApps, Target } from './target';

export const FORM_SUBMISSION = 'form-submission';

/** A side scenario's load, once what it needs on its stack is in place. */
export interface PreparedLoad {
  /** One run (a warmup or a measured run). */
  drive(connections: number, durationS: number): Promise<Measurement>;
  stop(): Promise<void>;
}

export interface SideScenario {
  name: string;
  description: string;
  /** What its stack runs beside the gateway and the two services. */
  apps: ExtraApps;
  prepare(target: Target): Promise<PreparedLoad>;
}

/** Where a form page carries its CSRF token (base64url and dots: nothing escaped). */
const CSRF_FIELD = /name="csrf_token" value="([^"]+)"/;

/** Step 1 of the form, as an applicant fills it in. */
const CONTACT = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '(555) 010-1234' };

/** What a connection keeps from a form page for the POST after it (autocannon clears it each pass). */
interface FormContext {
  csrf?: string;
}

export function sideScenarios(): SideScenario[] {
  return [formSubmission()];
}

/**
 * An applicant on the online form: GET a property's form page, then POST step 1 with the page's
 * CSRF token, which creates the application and answers 303 to step 2. Each token is taken once,
 * so every unit is a new submission; the unit is the pair, its latency the sum of both.
 */
function formSubmission(): SideScenario {
  return {
    name: FORM_SUBMISSION,
    description:
      'GET a property’s form page, then POST step 1 with its CSRF token: an application created, 303 (one unit, latency of both)',
    apps: { form: true },
    prepare: async (target) => {
      if (!target.formUrl) throw new Error(`${FORM_SUBMISSION} needs the form, which this target does not run`);
      const path = `/properties/${await createProperty(target)}/apply`;
      return {
        drive: (connections, durationS) =>
          driveHttp({
            url: target.formUrl!,
            connections,
            durationS,
            requests: submission(path),
            alsoSucceeded: [303],
            sequenceIsUnit: true,
          }),
        stop: async () => {},
      };
    },
  };
}

/** The form page at `path`, then its POST with the token the page carried (none if it carried none: a 403). */
function submission(path: string): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path,
      onResponse: (_status, html, context) => {
        (context as FormContext).csrf = CSRF_FIELD.exec(html)?.[1] ?? '';
      },
    },
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request, context) => ({
        ...request,
        body: new URLSearchParams({ ...CONTACT, csrf_token: (context as FormContext).csrf ?? '' }).toString(),
      }),
    },
  ];
}
