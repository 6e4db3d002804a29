import {
  afterFailure,
  attemptError,
  erasedMessage,
  HELD_UNCONFIRMED,
  messageIdFor,
  messageKey,
  MessageRecord,
  newMessageRecord,
  queueAfterClaim,
  toMessageRepresentation,
} from './message-record';
import { draftOf } from './message-record.testing';

const NOW = new Date('2026-11-22T14:03:09.456Z');
const draft = draftOf({ to: 'Ada@Example.test' });

describe('message records', () => {
  it('are keyed by event, kind and address (case aside): the same event for the same person is one message', () => {
    expect(messageKey('evt_1', 'invitation', 'Ada@Example.test')).toBe('evt_1:invitation:ada@example.test');
    expect(messageKey('evt_1', 'invitation', 'ada@example.test')).toBe(messageKey('evt_1', 'invitation', 'ADA@EXAMPLE.TEST'));
    expect(messageKey('evt_1', 'confirmation', 'ada@example.test')).not.toBe(
      messageKey('evt_1', 'invitation', 'ada@example.test'),
    );
    expect(messageKey('evt_2', 'invitation', 'ada@example.test')).not.toBe(messageKey('evt_1', 'invitation', 'ada@example.test'));
  });

  it('carry a Message-ID made from the key alone, in the sender’s domain', () => {
    const key = messageKey('evt_1', 'invitation', 'ada@example.test');
    expect(messageIdFor(key, 'apply@mail.example.test')).toBe(messageIdFor(key, 'apply@mail.example.test'));
    expect(messageIdFor(key, 'apply@mail.example.test')).toMatch(/^<[0-9a-f]{32}@mail\.example\.test>$/);
    expect(messageIdFor(messageKey('evt_2', 'invitation', 'ada@example.test'), 'a@b')).not.toBe(messageIdFor(key, 'a@b'));
  });

  it('drop what a suppressed message would have sent: it never will be', () => {
    const record = newMessageRecord(draftOf({ status: 'suppressed' }), 'apply@mail.example.test', NOW);
    expect(record).toMatchObject({ status: 'suppressed', content: null, list_unsubscribe: null, attempts: 0 });
    expect(newMessageRecord(draftOf({ status: 'held' }), 'a@b', NOW)).toMatchObject({
      status: 'held',
      content: draft.content,
      list_unsubscribe: draft.list_unsubscribe,
    });
  });

  it('start pending, unattempted, with the content to send', () => {
    const record = newMessageRecord(draft, 'apply@mail.example.test', NOW);
    const { source, ...fields } = draft;
    expect(source).toBe('evt_1');
    expect(record).toEqual({
      _id: 'evt_1:invitation:ada@example.test',
      message_id: messageIdFor('evt_1:invitation:ada@example.test', 'apply@mail.example.test'),
      ...fields,
      status: 'pending',
      attempts: 0,
      last_error: null,
      lease_until: null,
      created_at: NOW,
      sent_at: null,
    });
  });

  describe('queueAfterClaim', () => {
    const stored = (changes: Partial<MessageRecord>) => ({ ...newMessageRecord(draft, 'a@b', NOW), ...changes });

    it('queues a message this claim stored', () => {
      expect(queueAfterClaim(true, null, false)).toBe(true);
    });

    it('queues again one stored before but never attempted: the try that stored it may have stopped before queueing it', () => {
      expect(queueAfterClaim(false, stored({}), false)).toBe(true);
    });

    it('queues nothing for one stored and queued before, not yet attempted: the task would only wait out the first one’s lease', () => {
      expect(queueAfterClaim(false, stored({}), true)).toBe(false);
    });

    it('queues nothing for a message attempted, sent or given up: a redelivered event sends nothing twice', () => {
      expect(queueAfterClaim(false, stored({ status: 'sent', attempts: 1 }), false)).toBe(false);
      expect(queueAfterClaim(false, stored({ status: 'retrying', attempts: 2 }), false)).toBe(false);
      expect(queueAfterClaim(false, stored({ status: 'failed', attempts: 3 }), false)).toBe(false);
      expect(queueAfterClaim(false, null, false)).toBe(false);
      expect(queueAfterClaim(false, stored({ status: 'held' }), false)).toBe(false);
      expect(queueAfterClaim(false, stored({ status: 'suppressed' }), false)).toBe(false);
    });
  });

  it('retry after the delays of the schedule, then give up', () => {
    const schedule = [10, 60, 300];
    expect([0, 1, 2, 3].map((retry) => afterFailure(retry, schedule))).toEqual([
      { retryInSeconds: 10 },
      { retryInSeconds: 60 },
      { retryInSeconds: 300 },
      'give_up',
    ]);
  });

  it('keep why an attempt failed without the addresses a mail server quotes', () => {
    const answer = new Error(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <Ann.Lee+x@Example.COM>: Recipient address rejected",
    );
    expect(attemptError(answer)).toBe(
      "Error: Can't send mail - all recipients were rejected: 550 5.1.1 <[address]>: Recipient address rejected",
    );
    expect(attemptError('RCPT TO:ann@example.com failed; ann@example.com unknown')).toBe(
      'RCPT TO:[address] failed; [address] unknown',
    );
  });

  it('keep, once their applicant is erased, no address, content or link, and a held one is never sent', () => {
    const held = { ...newMessageRecord({ ...draft, status: 'held' }, 'a@b.test', NOW), last_error: 'refused ada@example.test' };
    const erased = erasedMessage(held);
    expect(erased).toMatchObject({ to: null, content: null, list_unsubscribe: null, last_error: null, status: 'suppressed' });
    expect(erased._id).toBe(`erased:${held.message_id}`);
    expect(JSON.stringify(erased).toLowerCase()).not.toContain(draft.to.toLowerCase());
    const sent = erasedMessage({ ...held, status: 'sent', content: null });
    expect(sent.status).toBe('sent');
  });

  it('are listed with kind, address, status, attempts and times, never their content', () => {
    const record = { ...newMessageRecord(draft, 'a@b.test', NOW), status: 'sent' as const, attempts: 2, sent_at: NOW };
    expect(toMessageRepresentation(record)).toEqual({
      id: record.message_id,
      kind: 'invitation',
      to: 'Ada@Example.test',
      status: 'sent',
      attempts: 2,
      sent_at: '2026-11-22T14:03:09+00:00',
      held_reason: null,
      held_until: null,
      created_at: '2026-11-22T14:03:09+00:00',
    });
  });

  it('say why one was held, and until when', () => {
    const held = {
      ...newMessageRecord({ ...draft, status: 'held' }, 'a@b.test', NOW),
      held_reason: HELD_UNCONFIRMED,
      held_until: NOW,
    };
    expect(toMessageRepresentation(held)).toMatchObject({
      status: 'held',
      held_reason: 'address_unconfirmed',
      held_until: '2026-11-22T14:03:09+00:00',
    });
  });
});
