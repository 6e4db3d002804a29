import { MAX_PAGE_SIZE } from '@app/contracts';
import { errorBody } from './api-responses';

export { APPLICANT_404 } from './application-responses';

export const APPLICANT_PATCH_422 = {
  description:
    'Invalid input, under the rules of create: the message names the first problem and details lists every one, ' +
    'unknown fields included (type, dob and id_number are not fields of a correction).',
  examples: {
    invalid: errorBody('Invalid fields', 'applicant.email must be a valid e-mail address', [
      { field: 'applicant.email', message: 'must be a valid e-mail address' },
      { field: 'applicant.type', message: 'is not a known field' },
    ]),
  },
};

export const APPLICANT_REMOVE_422 = {
  description: 'The applicant is the primary one, which cannot be removed.',
  examples: {
    primary: errorBody(
      'Primary applicant',
      'applicant 1 cannot be removed: it is the primary applicant; only co-applicants and guarantors can be',
      [
        {
          field: 'applicant',
          message: 'cannot be removed: it is the primary applicant; only co-applicants and guarantors can be',
        },
      ],
    ),
  },
};

export const SENSITIVE_DATA_403 = {
  description: 'include=sensitive_data by a key that API_KEY_SCOPES does not grant the sensitive_data scope.',
  examples: {
    scope: errorBody(
      'Scope missing',
      'include=sensitive_data needs the sensitive_data scope, which this API key does not have (API_KEY_SCOPES)',
    ),
  },
};

export const SENSITIVE_QUERY_422 = {
  description: 'An include other than sensitive_data, or an unknown query parameter; details names each.',
  examples: {
    include: errorBody('Bad include', 'include must be sensitive_data', [
      { field: 'include', message: 'must be sensitive_data' },
    ]),
  },
};

export const AUDIT_LIST_422 = {
  description: `A limit that is not an integer from 1 to ${MAX_PAGE_SIZE}, a cursor this API did not hand out, an applicant_id that is not a positive integer, or an unknown query parameter; details names each.`,
  examples: {
    applicant: errorBody('Bad applicant_id', 'applicant_id must be a positive integer', [
      { field: 'applicant_id', message: 'must be a positive integer' },
    ]),
  },
};
