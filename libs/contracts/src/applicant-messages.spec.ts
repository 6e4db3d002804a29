import {
  applicantIncludeFromQuery,
  listAuditEventsFromQuery,
  readListAuditEvents,
  readSensitiveReader,
} from './applicant-messages';
import { parseRequest } from './validation/parse';
import { UpdateApplicantRequest } from './dto/applicant-changes.dto';
import { ServiceError } from './errors';
import { CreateWebhookRequest } from './dto/webhook.dto';

const problems = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as ServiceError).details;
  }
  throw new Error('not refused');
};

describe('applicantIncludeFromQuery', () => {
  it('reads include=sensitive_data, and nothing as no include', () => {
    expect(applicantIncludeFromQuery({ include: 'sensitive_data' })).toEqual({ sensitiveData: true });
    expect(applicantIncludeFromQuery({})).toEqual({ sensitiveData: false });
  });

  it('refuses another include, a repeated one and unknown parameters, naming each', () => {
    expect(problems(() => applicantIncludeFromQuery({ include: 'dob', fields: 'all' }))).toEqual([
      { field: 'fields', message: 'is not a known query parameter' },
      { field: 'include', message: 'must be sensitive_data' },
    ]);
    expect(problems(() => applicantIncludeFromQuery({ include: ['sensitive_data', 'sensitive_data'] }))).toHaveLength(1);
  });
});

describe('audit event list queries', () => {
  it('reads applicant_id, limit and cursor', () => {
    expect(listAuditEventsFromQuery(3, { applicant_id: '12', limit: '5' })).toEqual({ client_id: 3, limit: 5, applicant_id: 12 });
    expect(listAuditEventsFromQuery(3, {})).toEqual({ client_id: 3, limit: 25 });
  });

  it('refuses a bad applicant_id, limit or cursor and unknown parameters, naming each', () => {
    expect(problems(() => listAuditEventsFromQuery(3, { applicant_id: '0', limit: '101', cursor: '!', action: 'x' }))).toEqual([
      { field: 'limit', message: 'must be an integer from 1 to 100' },
      { field: 'cursor', message: 'is not a cursor this API handed out' },
      { field: 'applicant_id', message: 'must be a positive integer' },
      { field: 'action', message: 'is not a known query parameter' },
    ]);
    expect(problems(() => listAuditEventsFromQuery(3, { applicant_id: ['1', '2'] }))).toEqual([
      { field: 'applicant_id', message: 'must be a positive integer' },
    ]);
  });

  it('checks the message again as the service receives it', () => {
    expect(readListAuditEvents({ client_id: 3, limit: 5, applicant_id: 12 })).toEqual({ clientId: 3, limit: 5, applicantId: 12 });
    expect(() => readListAuditEvents({ client_id: 3, limit: 500 })).toThrow('malformed list message');
    expect(() => readListAuditEvents({ client_id: 3, limit: 5, applicant_id: -1 })).toThrow('malformed list message');
  });
});

describe('readSensitiveReader', () => {
  const ref = { client_id: 1, application_id: 1, id: 1 };

  it('takes a key fingerprint and a request id, nothing else', () => {
    expect(readSensitiveReader({ ...ref, reader: { key_id: '0123456789abcdef', request_id: 'r-1' } })).toEqual({
      key_id: '0123456789abcdef',
      request_id: 'r-1',
    });
    for (const reader of [undefined, {}, { key_id: 'the-key-itself', request_id: 'r' }, { key_id: '0123456789abcdef' }]) {
      expect(() => readSensitiveReader({ ...ref, reader } as never)).toThrow('malformed sensitive_data reader');
    }
  });

  it('takes a request id only as the gateway takes X-Request-Id: 1 to 128 characters that cannot break a log line', () => {
    const key_id = '0123456789abcdef';
    for (const request_id of ['', 'r'.repeat(129), 'a\nb', 'forged id', 'x\u0000']) {
      expect(() => readSensitiveReader({ ...ref, reader: { key_id, request_id } })).toThrow('malformed sensitive_data reader');
    }
    expect(readSensitiveReader({ ...ref, reader: { key_id, request_id: 'r'.repeat(128) } }).request_id).toHaveLength(128);
  });

  it('tells a read for a summary PDF from the API’s, and takes no other purpose', () => {
    const reader = { key_id: '0123456789abcdef', request_id: 'r-1' };
    expect(readSensitiveReader({ ...ref, reader: { ...reader, purpose: 'summary_pdf' } })).toEqual({
      ...reader,
      purpose: 'summary_pdf',
    });
    expect(() => readSensitiveReader({ ...ref, reader: { ...reader, purpose: 'anything' } } as never)).toThrow('malformed');
  });
});

describe('UpdateApplicantRequest', () => {
  it('takes the correctable fields, normalized as on create', () => {
    const { applicant } = parseRequest(UpdateApplicantRequest, {
      applicant: { first_name: ' Ada ', phone: '(555) 010-1234', custom_data: null },
    });
    expect({ ...applicant }).toEqual({ first_name: 'Ada', phone: '5550101234', custom_data: null });
  });

  it('refuses type, dob, id_number and redirect_url as unknown fields, and null names', () => {
    expect(
      problems(() =>
        parseRequest(UpdateApplicantRequest, {
          applicant: { type: 'guarantor', dob: '1990-01-01', id_number: '123456789', redirect_url: null, last_name: null },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        { field: 'applicant.last_name', message: 'must not be null' },
        { field: 'applicant.type', message: 'is not a known field' },
        { field: 'applicant.dob', message: 'is not a known field' },
        { field: 'applicant.id_number', message: 'is not a known field' },
        { field: 'applicant.redirect_url', message: 'is not a known field' },
      ]),
    );
  });
});

describe('the applicant events', () => {
  it('can be subscribed to by a webhook', () => {
    const events = ['applicant.updated', 'applicant.removed'];
    const { webhook } = parseRequest(CreateWebhookRequest, { webhook: { url: 'https://crm.example.com/hooks', events } });
    expect(webhook.events).toEqual(events);
  });
});
