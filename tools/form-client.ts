/**
 * Driving the application form over HTTP as a browser posts it: its pages' CSRF tokens, step 1, a
 * step, an upload. Shared by the e2e tests and the bench.
 */

/** The CSRF token of a form page. */
export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1];
}

/** Step 1 for an applicant created through the API, as `contact`, with `headers`: its form is started. Its token. */
export async function startForm(
  formUrl: string,
  applicantFormUrl: string,
  contact: { first_name: string; last_name: string; email: string } = {
    first_name: 'Grace',
    last_name: 'Hopper',
    email: 'grace@example.com',
  },
  headers: Record<string, string> = {},
): Promise<string> {
  const token = applicantFormUrl.split('/').pop()!;
  const page = await fetch(`${formUrl}/applicants/${token}`);
  const started = await fetch(`${formUrl}/applicants/${token}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ csrf_token: csrfOf(await page.text()), ...contact }),
  });
  if (started.status !== 303) throw new Error(`step 1 answered ${started.status}`);
  return token;
}

/** Step 1 on a property's public form (`/properties/<id>/apply`), as a visitor sends it: its new applicant's token. */
export async function startPublicForm(
  formUrl: string,
  propertyId: number,
  contact: Record<string, string> = { first_name: 'Vic', last_name: 'Itor', email: 'vic@example.com', phone: '5550104444' },
): Promise<string> {
  const apply = `${formUrl}/properties/${propertyId}/apply`;
  const page = await fetch(apply);
  const started = await fetch(apply, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrfOf(await page.text()), ...contact }),
  });
  if (started.status !== 303) throw new Error(`step 1 on the public form answered ${started.status}`);
  return /^\/applicants\/([^/?]+)/.exec(started.headers.get('location')!)![1];
}

export interface Upload {
  kind?: string;
  name: string;
  type: string;
  bytes: Buffer;
  /** A page's CSRF token; a fresh page's when not given. */
  csrf?: string;
}

/** Posts one file as the documents page's form does. */
export async function uploadDocument(
  formUrl: string,
  token: string,
  file: Upload,
): Promise<{ status: number; html: string; location: string | null }> {
  const csrf = file.csrf ?? csrfOf(await (await fetch(`${formUrl}/applicants/${token}/documents`)).text());
  const form = new FormData();
  form.append('csrf_token', csrf);
  form.append('kind', file.kind ?? 'photo_id');
  form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  const answer = await fetch(`${formUrl}/applicants/${token}/documents`, { method: 'POST', body: form, redirect: 'manual' });
  return { status: answer.status, html: await answer.text(), location: answer.headers.get('location') };
}

/** Sends one step of an applicant's form (`/applicants/<token>/<step>`) with its page's CSRF token; the answer. */
export async function sendStep(
  formUrl: string,
  token: string,
  step: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const url = `${formUrl}/applicants/${token}/${step}`;
  const page = await fetch(url, { redirect: 'manual' });
  if (page.status !== 200) throw new Error(`the ${step} page answered ${page.status} (${page.headers.get('location')})`);
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ ...fields, csrf_token: csrfOf(await page.text()) }),
  });
}

/** Sends one step as sendStep does; it must be saved (a 303 to the next step). */
export async function saveStep(formUrl: string, token: string, step: string, fields: Record<string, string>): Promise<void> {
  const sent = await sendStep(formUrl, token, step, fields);
  if (sent.status !== 303) throw new Error(`the ${step} step answered ${sent.status}:\n${(await sent.text()).slice(0, 2000)}`);
}
