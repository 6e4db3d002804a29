import { MessagePreview, MessagePreviewCase, NotificationSettingsRepresentation } from '@app/contracts';
import { MessageData, renderMessage } from './templates';

/** Where a preview's links point: placeholders, as a real link is an applicant's secret. */
const SAMPLE_FORM_URL = 'https://forms.example.com/applicants/sample-form-link';

const SAMPLE_CONFIRM_URL = 'https://forms.example.com/mail/confirm/sample-confirmation-link';

/** Stands for an applicant, a property and a co-applicant in every preview. */
const SAMPLE = {
  first_name: 'Alex',
  property_name: 'Maple Street Apartments, Unit 4B',
  primary: 'Jordan Lee',
} as const;

/**
 * Every message the client's applicants may receive, as the client's settings (sender name,
 * screening agency) make it now, filled with sample names and placeholder links: what an
 * integrator reads before anything is sent. Each case is one message as its addressee gets it.
 */
export function messagePreviews(settings: NotificationSettingsRepresentation, now = new Date()): MessagePreview[] {
  const base: MessageData = {
    first_name: SAMPLE.first_name,
    property_name: SAMPLE.property_name,
    url: SAMPLE_FORM_URL,
    sender_name: settings.sender_name,
    withdraw_url: `${SAMPLE_FORM_URL}/withdraw`,
  };
  const decided = (decision: NonNullable<MessageData['decision']>): MessageData => ({ ...base, url: null, decision });
  const agency = settings.screening_agency ?? null;
  const cases: Array<{ case: MessagePreviewCase; kind: MessagePreview['kind']; data: MessageData }> = [
    { case: 'invitation', kind: 'invitation', data: { ...base, joins: SAMPLE.primary } },
    { case: 'invitation_from_form', kind: 'invitation', data: { ...base, added_by: SAMPLE.primary } },
    {
      case: 'property_invitation',
      kind: 'invitation',
      data: {
        ...base,
        first_name: null,
        withdraw_url: null,
        expires_at: new Date(now.getTime() + 7 * 24 * 3600 * 1000).toISOString(),
      },
    },
    { case: 'reminder', kind: 'reminder', data: base },
    { case: 'confirmation', kind: 'confirmation', data: { ...base, url: null } },
    {
      case: 'decision_approved',
      kind: 'decision',
      data: decided({ status: 'approved', conditions: [], reasons: [], note: null, screening_agency: agency }),
    },
    {
      case: 'decision_conditionally_approved',
      kind: 'decision',
      data: decided({
        status: 'conditionally_approved',
        conditions: [
          { kind: 'deposit', amount: 3700, text: null },
          { kind: 'guarantor', amount: null, text: null },
        ],
        reasons: [],
        note: 'Please bring the deposit to the office by December 1.',
        screening_agency: agency,
      }),
    },
    {
      case: 'decision_declined',
      kind: 'decision',
      data: decided({ status: 'declined', conditions: [], reasons: ['income'], note: null, screening_agency: agency }),
    },
    {
      case: 'decision_declined_screening_report',
      kind: 'decision',
      data: decided({ status: 'declined', conditions: [], reasons: ['screening_report'], note: null, screening_agency: agency }),
    },
    {
      case: 'decision_withdrawn',
      kind: 'decision',
      data: decided({ status: 'withdrawn', conditions: [], reasons: [], note: null, screening_agency: agency }),
    },
    {
      case: 'address_confirmation',
      kind: 'address_confirmation',
      data: { ...base, first_name: null, url: SAMPLE_CONFIRM_URL, withdraw_url: null },
    },
  ];
  return cases.map(({ case: name, kind, data }) => ({ case: name, kind, ...renderMessage(kind, data, now) }));
}
