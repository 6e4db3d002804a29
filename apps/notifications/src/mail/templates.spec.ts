import { MESSAGE_KINDS } from '@app/contracts';
import { MessageData, renderMessage } from './templates';

const DATA: MessageData = {
  first_name: 'Ada',
  property_name: 'Maple Court',
  url: 'https://apply.example.test/applicants/tok123?a=1&b=2',
  sender_name: 'Maple Rentals',
};

describe('renderMessage', () => {
  it.each(MESSAGE_KINDS)('makes a %s with a subject, a text part and an HTML part naming the property', (kind) => {
    const message = renderMessage(kind, DATA);
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

  it('puts no link in a confirmation', () => {
    const message = renderMessage('confirmation', DATA);
    expect(message.text).not.toContain('https://');
    expect(message.html).not.toContain('href=');
  });

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

  it('keeps a subject on one line whatever the property is named', () => {
    expect(renderMessage('confirmation', { ...DATA, property_name: 'Elm\r\nBcc: x@example.test' }).subject).toBe(
      'We received your application for Elm Bcc: x@example.test',
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
