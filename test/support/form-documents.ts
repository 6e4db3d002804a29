/** Driving the application form over HTTP as a browser posts it: its pages' CSRF tokens, step 1, an upload. */

/** The CSRF token of a form page. */
export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF token in the page:\n${html.slice(0, 500)}`);
  return match[1];
}

/** Step 1 for an applicant created through the API: its form is started. Its token. */
export async function startForm(formUrl: string, applicantFormUrl: string): Promise<string> {
  const token = applicantFormUrl.split('/').pop()!;
  const page = await fetch(`${formUrl}/applicants/${token}`);
  const contact = await fetch(`${formUrl}/applicants/${token}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf_token: csrfOf(await page.text()),
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
    }),
  });
  if (contact.status !== 303) throw new Error(`step 1 answered ${contact.status}`);
  return token;
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
