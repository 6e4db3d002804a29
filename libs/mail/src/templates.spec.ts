import { CONTROL_CHARACTER, MESSAGE_KINDS, MessageKind } from '@app/contracts';
import { DecisionData, MessageData, renderMessage } from './templates';

const DATA: MessageData = {
  first_name: 'Ada',
  property_name: 'Maple Court',
  url: 'https://apply.example.test/applicants/tok123?a=1&b=2',
  sender_name: 'Maple Rentals',
};

const APPROVED: DecisionData = { status: 'approved', conditions: [], reasons: [], note: null, screening_agency: null };

/** DATA, with an approval for a decision's message. */
const dataFor = (kind: MessageKind): MessageData => (kind === 'decision' ? { ...DATA, decision: APPROVED } : DATA);

describe('renderMessage', () => {
  it.each(MESSAGE_KINDS)('makes a %s with a subject, a text part and an HTML part naming the property', (kind) => {
    const message = renderMessage(kind, dataFor(kind));
    expect(message.subject).toContain('Maple Court');
    expect(message.text).toContain('Hello Ada,');
    expect(message.text).toContain('Maple Court');
    expect(message.text).toContain('Maple Rentals');
    expect(message.html).toMatch(/^<!doctype html>/);
    expect(message.html).toContain('<p>Hello Ada,</p>');
    expect(message.html).toContain('<strong>Maple Court</strong>');
  });

  it.each(['invitation', 'reminder'] as const)('puts the link of a %s in both parts, escaped in the HTML', (kind) => {
    const message = renderMessage(kind, DATA);
    expect(message.text).toContain(DATA.url!);
    expect(message.html).toContain('href="https://apply.example.test/applicants/tok123?a=1&amp;b=2"');
  });

  it('asks an address typed on the form to be confirmed by its link, and gives no link to the application itself', () => {
    const message = renderMessage('address_confirmation', {
      ...DATA,
      url: 'https://apply.example.test/mail/confirm/abc?x=1&y=2',
      withdraw_url: 'https://apply.example.test/applicants/tok123/withdraw',
    });
    expect(message.subject).toBe('Confirm your e-mail address for your application for Maple Court');
    expect(message.text).toContain(
      'please confirm that it is yours and that you want these e-mails:\n\nhttps://apply.example.test/mail/confirm/abc?x=1&y=2',
    );
    expect(message.html).toContain('href="https://apply.example.test/mail/confirm/abc?x=1&amp;y=2"');
    expect(message.text).toContain('If you did not apply, or do not want these e-mails, ignore this one');
    expect(`${message.text}${message.html}`).not.toContain('withdraw');
  });

  it.each(MESSAGE_KINDS)('ends a %s with the link that stops every e-mail to the address, when it has one', (kind) => {
    const unsubscribe_url = 'https://apply.example.test/mail/unsubscribe/u1?a=1&b=2';
    const message = renderMessage(kind, { ...dataFor(kind), unsubscribe_url });
    expect(message.text).toMatch(
      new RegExp(`\n--\nTo get no more e-mail from us at this address: ${unsubscribe_url.replace(/[?&]/g, '\\$&')}\n$`),
    );
    expect(message.html).toContain('href="https://apply.example.test/mail/unsubscribe/u1?a=1&amp;b=2"');
    const none = renderMessage(kind, dataFor(kind));
    expect(`${none.text}${none.html}`).not.toContain('no more e-mail');
  });

  it('puts no link in a confirmation', () => {
    const message = renderMessage('confirmation', DATA);
    expect(message.text).not.toContain('https://');
    expect(message.html).not.toContain('href=');
  });

  /** Every kind but the address confirmation, which may reach someone who never applied. */
  const ABOUT_THE_APPLICATION = MESSAGE_KINDS.filter((kind) => kind !== 'address_confirmation');

  it.each(ABOUT_THE_APPLICATION)(
    'puts the page to withdraw the application in both parts of a %s, escaped in the HTML',
    (kind) => {
      const withdraw_url = 'https://apply.example.test/applicants/tok123/withdraw?a=1&b=2';
      const message = renderMessage(kind, { ...dataFor(kind), withdraw_url });
      expect(message.text).toContain(`You can withdraw the application:\n\n${withdraw_url}`);
      expect(message.html).toContain('href="https://apply.example.test/applicants/tok123/withdraw?a=1&amp;b=2"');
      // An invitation to a property's form has no application to withdraw yet.
      const none = renderMessage(kind, dataFor(kind));
      expect(none.text).not.toContain('withdraw');
      expect(none.html).not.toContain('withdraw');
    },
  );

  it.each(ABOUT_THE_APPLICATION)(
    'tells a co-applicant or guarantor in a %s that its withdraw page withdraws itself, not the application',
    (kind) => {
      const withdraw_url = 'https://apply.example.test/applicants/tok456/withdraw';
      const message = renderMessage(kind, { ...dataFor(kind), withdraw_url, withdraws_own_part: true });
      const offer =
        'No longer want to be part of this application? You can withdraw from it (the application goes on without you)';
      expect(message.text).toContain(`${offer}:\n\n${withdraw_url}`);
      expect(message.html).toContain(`${offer}: <a href="${withdraw_url}">`);
      expect(`${message.text}${message.html}`).not.toContain('withdraw the application');
    },
  );

  it('shows markup in a name or a property as text: escaped in the HTML, as typed in the text and subject', () => {
    const markup = {
      ...DATA,
      first_name: '<img src=x onerror=alert(1)>',
      property_name: '<b>Elm</b> & "Oak"',
      sender_name: '<i>Us</i>',
    };
    const message = renderMessage('invitation', markup);
    expect(message.html).not.toMatch(/<img|<b>|<i>/);
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(message.html).toContain('&lt;b&gt;Elm&lt;/b&gt; &amp; &quot;Oak&quot;');
    expect(message.html).toContain('&lt;i&gt;Us&lt;/i&gt;');
    expect(message.text).toContain('Hello <img src=x onerror=alert(1)>,');
    expect(message.subject).toBe('You are invited to apply for <b>Elm</b> & "Oak"');
  });

  it('says in an invitation who listed the addressee on their form, escaped in the HTML', () => {
    const message = renderMessage('invitation', { ...DATA, added_by: 'Grace <i>Hopper</i>' });
    expect(message.text).toContain('Grace <i>Hopper</i> added you to their application for Maple Court. Your own');
    expect(message.html).toContain(
      '<p>Grace &lt;i&gt;Hopper&lt;/i&gt; added you to their application for <strong>Maple Court</strong>. ',
    );
    expect(message.text).not.toContain('You are invited');
    expect(message.subject).toBe('Grace <i>Hopper</i> added you to their application for Maple Court');
    expect(renderMessage('invitation', DATA).text).toContain('You are invited to apply for Maple Court. Your own');
  });

  it('says in an invitation added through the API whose application it joins, escaped in the HTML', () => {
    const message = renderMessage('invitation', { ...DATA, joins: 'Grace <i>Hopper</i>' });
    expect(message.subject).toBe('You are invited to join Grace <i>Hopper</i>’s application for Maple Court');
    expect(message.text).toContain('You are invited to join Grace <i>Hopper</i>’s application for Maple Court. Your own');
    expect(message.html).toContain(
      '<p>You are invited to join Grace &lt;i&gt;Hopper&lt;/i&gt;’s application for <strong>Maple Court</strong>. ',
    );
    // One listed on a form is told who listed it.
    expect(renderMessage('invitation', { ...DATA, joins: 'Grace Hopper', added_by: 'Alan Turing' }).subject).toBe(
      'Alan Turing added you to their application for Maple Court',
    );
  });

  it('says in an invitation to a property’s form how long its link works, and until when', () => {
    const now = new Date('2026-11-28T08:10:30Z');
    const message = renderMessage('invitation', { ...DATA, expires_at: '2026-12-05T08:10:30Z' }, now);
    expect(message.text).toContain(
      `${DATA.url}\n\nIt works for 7 days, until 5 December 2026 at 08:10 UTC.\n\nThe link is yours`,
    );
    expect(message.html).toContain('<p>It works for 7 days, until 5 December 2026 at 08:10 UTC.</p>');
    // A lifetime set to hours is said in hours.
    expect(renderMessage('invitation', { ...DATA, expires_at: '2026-11-28T20:10:30Z' }, now).text).toContain(
      'It works for 12 hours, until 28 November 2026 at 20:10 UTC.',
    );
    // An applicant's own form link does not expire: no such line.
    expect(renderMessage('invitation', DATA).text).not.toContain('It works for');
  });

  it.each(MESSAGE_KINDS)('titles the HTML part of a %s with its subject, escaped', (kind) => {
    const message = renderMessage(kind, { ...dataFor(kind), property_name: '<b>Elm</b> & Oak' });
    const title = message.subject.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(message.html).toContain(`<head><meta charset="utf-8"><title>${title}</title></head>`);
    expect(message.subject).toContain('<b>Elm</b> & Oak');
  });

  it('keeps a subject on one line whatever the property is named', () => {
    expect(renderMessage('confirmation', { ...DATA, property_name: 'Elm\r\nBcc: x@example.test' }).subject).toBe(
      'We received your application for Elm Bcc: x@example.test',
    );
  });

  it('shows a name that carries line breaks and controls as one line: no paragraphs, no hidden text, in no part', () => {
    const paragraph = 'Ada\n\nYou won a prize! Claim it at https://prize.example.test\r\n\u2028\u202eevil\u0007';
    const message = renderMessage('invitation', {
      ...DATA,
      added_by: `${paragraph} Lovelace`,
      first_name: paragraph,
      sender_name: paragraph,
    });
    for (const part of [message.subject, message.text.split('\n\n')[0], message.text.split('\n\n')[1]]) {
      expect(part).not.toMatch(CONTROL_CHARACTER);
    }
    expect(message.text.startsWith('Hello Ada You won a prize! Claim it at https://prize.example.test evil,\n\n')).toBe(true);
    expect(message.subject).toBe(
      'Ada You won a prize! Claim it at https://prize.example.test evil Lovelace added you to their application for Maple Court',
    );
    expect(message.html.replace(/\n/g, '')).not.toMatch(CONTROL_CHARACTER);
    expect(renderMessage('confirmation', { ...DATA, first_name: 'x'.repeat(500) }).text.split('\n')[0]).toHaveLength(
      'Hello ,'.length + 100,
    );
  });

  it('greets without a name when none is known, and signs only with a sender name', () => {
    const message = renderMessage('invitation', { ...DATA, first_name: null, sender_name: null });
    expect(message.text.startsWith('Hello,\n')).toBe(true);
    expect(message.html).toContain('<p>Hello,</p>');
    expect(message.text).not.toContain('null');
    expect(message.html).not.toContain('null');
  });
});

describe('renderMessage for a decision', () => {
  const AGENCY = { name: 'Screening <b>Co</b> & Sons', address: 'PO Box 800, Woodlyn, PA 19094', phone: '1-800-230-9376' };
  const decision = (fields: Partial<DecisionData>): MessageData => ({ ...DATA, url: null, decision: { ...APPROVED, ...fields } });
  const now = new Date('2026-11-29T10:00:00Z');

  it('tells an approval, and offers to withdraw', () => {
    const message = renderMessage('decision', { ...decision({}), withdraw_url: 'https://apply.example.test/w' });
    expect(message.subject).toBe('Your application for Maple Court is approved');
    expect(message.text).toContain('Good news: your application for Maple Court is approved.');
    expect(message.text).toContain('You can withdraw the application:\n\nhttps://apply.example.test/w');
  });

  it('lists the conditions of a conditional approval, one line each, escaped in the HTML', () => {
    const message = renderMessage(
      'decision',
      decision({
        status: 'conditionally_approved',
        conditions: [
          { kind: 'deposit', amount: 3700, text: null },
          { kind: 'guarantor', amount: null, text: null },
          { kind: 'co_signer', amount: null, text: 'a parent' },
          { kind: 'other', amount: null, text: 'Proof of <renter’s> insurance\nClick https://x.example.test' },
        ],
      }),
    );
    expect(message.subject).toBe('Your application for Maple Court is approved on conditions');
    expect(message.text).toContain(
      'approved on these conditions:\n\n- A deposit of $3,700\n- A guarantor\n- A co-signer: a parent\n' +
        '- Proof of <renter’s> insurance Click https://x.example.test\n\nTo go ahead, reply',
    );
    expect(message.html).toContain(
      '<ul><li>A deposit of $3,700</li><li>A guarantor</li><li>A co-signer: a parent</li>' +
        '<li>Proof of &lt;renter’s&gt; insurance Click https://x.example.test</li></ul>',
    );
  });

  it('tells a decline with no notice and no reason when it does not rest on the screening report, and offers no withdrawal', () => {
    const message = renderMessage('decision', {
      ...decision({ status: 'declined', reasons: ['income', 'other'] }),
      withdraw_url: 'https://w',
    });
    expect(message.subject).toBe('Your application for Maple Court');
    expect(message.text).toContain('your application for Maple Court has not been approved.');
    expect(message.text).not.toMatch(/adverse|consumer report|income|withdraw/i);
  });

  it('carries the adverse action notice in a decline on the screening report: the agency, its part, the rights, the date', () => {
    const message = renderMessage(
      'decision',
      decision({ status: 'declined', reasons: ['income', 'screening_report'], screening_agency: AGENCY }),
      now,
    );
    const paragraphs = message.text.split('\n\n');
    expect(paragraphs).toEqual(
      expect.arrayContaining([
        'Notice of adverse action, November 29, 2026.',
        'This decision was based in whole or in part on information in a consumer report from Screening <b>Co</b> & Sons, ' +
          'PO Box 800, Woodlyn, PA 19094, phone 1-800-230-9376.',
        'Screening <b>Co</b> & Sons did not make this decision and cannot tell you why it was made.',
        'You have the right to get a free copy of your report from Screening <b>Co</b> & Sons if you ask for it within 60 days of receiving this notice.',
        'You have the right to dispute with Screening <b>Co</b> & Sons the accuracy or completeness of any information in the report.',
      ]),
    );
    expect(message.html).not.toContain('<b>Co</b>');
    expect(message.html).toContain('<p>Screening &lt;b&gt;Co&lt;/b&gt; &amp; Sons did not make this decision');
  });

  it('still gives the notice when no agency is set, saying how to learn which it was', () => {
    const message = renderMessage('decision', decision({ status: 'declined', reasons: ['screening_report'] }), now);
    expect(message.text).toContain(
      'from a consumer reporting agency: reply to this e-mail for its name, address and phone number.',
    );
    expect(message.text).toContain('The agency did not make this decision');
    expect(message.text).toContain('a free copy of your report from the agency if you ask for it within 60 days');
  });

  it('tells the decider’s note, as one line, escaped in the HTML', () => {
    const message = renderMessage('decision', decision({ note: 'Keys at the <office>\n\nfrom Monday.' }));
    expect(message.text).toContain('Reply to this e-mail with any question.\n\nKeys at the <office> from Monday.');
    expect(message.html).toContain('<p>Keys at the &lt;office&gt; from Monday.</p>');
    expect(renderMessage('decision', decision({})).text).not.toContain('null');
  });

  it('tells a withdrawal, without offering to withdraw again', () => {
    const message = renderMessage('decision', { ...decision({ status: 'withdrawn' }), withdraw_url: 'https://w' });
    expect(message.subject).toBe('Your application for Maple Court is withdrawn');
    expect(message.text).not.toContain('https://w');
  });
});
