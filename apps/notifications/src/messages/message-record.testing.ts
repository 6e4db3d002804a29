import { MessageDraft } from './message-record';

/** A draft for the specs: an invitation to ada@example.test following evt_1, but for `changes`. */
export function draftOf(changes: Partial<MessageDraft> = {}): MessageDraft {
  return {
    source: 'evt_1',
    kind: 'invitation',
    to: 'ada@example.test',
    client_id: 1,
    application_id: 2,
    applicant_id: 3,
    property_id: 4,
    from_name: null,
    reply_to: null,
    content: { subject: 's', text: 't', html: 'h' },
    list_unsubscribe: 'https://apply.example.test/mail/unsubscribe/u1',
    required_notice: false,
    status: 'pending',
    ...changes,
  };
}
