/** Driving the application form over HTTP as a browser posts it: tools/form-client.ts, and whole steps of a preset. */

import { saveStep } from '../../tools/form-client';

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
