/** Driving the application form over HTTP as a browser posts it: tools/form-client.ts, and whole steps of a preset. */

import { request as httpRequest } from 'node:http';
import { csrfOf, saveStep, Upload } from '../../tools/form-client';

export { csrfOf, sendStep, startForm, uploadDocument } from '../../tools/form-client';
export type { Upload } from '../../tools/form-client';

/**
 * Saves the steps of preset 3 around its documents page (the unit of a single-family home, the
 * identity, the preset's questions), as a browser sends them; each must be accepted.
 */
export async function fillStepsOfPreset3(formUrl: string, token: string, answers: Record<string, string> = {}): Promise<void> {
  const steps: Array<[string, Record<string, string>]> = [
    ['details', { desired_move_in: '2027-03-01' }],
    ['identity', { middle_name: 'Brewster', dob: '1990-04-12', id_number: '123-45-6789' }],
    ['questions', { 'answers.current_address': '1 Old Road, Springfield', 'answers.employer': 'Navy', ...answers }],
  ];
  for (const [step, fields] of steps) await saveStep(formUrl, token, step, fields);
}

/**
 * Posts one file as uploadDocument does, with its body sent in pieces: the fields and the file's
 * part header first, then the file's bytes cut at each of `cuts`, each piece `gapMs` after the one
 * before, as a slow link, or a browser reading the file from disk while it sends, would send them.
 * The gaps shape the traffic; nothing waits on them.
 */
export async function uploadInPieces(
  formUrl: string,
  token: string,
  file: Upload,
  cuts: number[],
  gapMs: number,
): Promise<{ status: number; html: string; location: string | null }> {
  const url = new URL(`${formUrl}/applicants/${token}/documents`);
  const csrf = file.csrf ?? csrfOf(await (await fetch(url)).text());
  const boundary = `----pieces${Date.now().toString(36)}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('csrf_token', csrf) +
      field('website', '') +
      field('kind', file.kind ?? 'photo_id') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const edges = [0, ...cuts, file.bytes.length];
  const pieces = [head, ...edges.slice(1).map((end, i) => file.bytes.subarray(edges[i], end)), tail];
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + file.bytes.length + tail.length),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const body: Buffer[] = [];
      response.on('data', (chunk: Buffer) => body.push(chunk));
      response.on('error', reject);
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          html: Buffer.concat(body).toString(),
          location: response.headers.location ?? null,
        }),
      );
    });
    const send = (index: number) => {
      if (index === pieces.length) return void request.end();
      request.write(pieces[index]);
      setTimeout(() => send(index + 1), gapMs);
    };
    send(0);
  });
}
