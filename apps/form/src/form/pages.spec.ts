import { phoneLink, summarize } from './pages';

/** A page as the templates render it: labels, a question's fieldset, the consent checkbox. */
const body = `
<label for="field-first_name">First name</label><input id="field-first_name" name="first_name">
<label for="field-email">E-mail address</label><input id="field-email" name="email">
<fieldset class="field" id="field-answers-pets"><legend>Do you have pets? <span class="optional">(optional)</span></legend></fieldset>
<label class="choice"><input id="field-consent" type="checkbox" name="consent" value="yes"> I agree to the disclosures</label>
<label for="field-note">Tom &amp; Jerry&#39;s note</label><input id="field-note" name="note">
`;

describe('summarize', () => {
  it('names each problem by the label the applicant sees, in the order of the page', () => {
    const summary = summarize(body, [
      { field: 'consent', message: 'must be given' },
      { field: 'email', message: 'must be a valid e-mail address' },
      { field: 'answers.pets', message: 'must be yes or no' },
      { field: 'first_name', message: 'is required' },
    ]);
    expect(summary).toEqual([
      { id: 'field-first_name', label: 'First name', message: 'is required' },
      { id: 'field-email', label: 'E-mail address', message: 'must be a valid e-mail address' },
      { id: 'field-answers-pets', label: 'Do you have pets?', message: 'must be yes or no' },
      { id: 'field-consent', label: 'I agree to the disclosures', message: 'must be given' },
    ]);
  });

  it('keeps a label as rendered, escaped, and lists one problem per field', () => {
    expect(
      summarize(body, [
        { field: 'note', message: 'is too long' },
        { field: 'note', message: 'is odd' },
      ]),
    ).toEqual([{ id: 'field-note', label: 'Tom &amp; Jerry&#39;s note', message: 'is too long' }]);
  });

  it('puts a problem the page shows no field for last, named after its field, escaped', () => {
    expect(
      summarize(body, [
        { field: 'application.desired_move_in', message: 'is not a date' },
        { field: 'first_name', message: 'is required' },
        { field: '<b>', message: 'odd' },
      ]),
    ).toEqual([
      { id: 'field-first_name', label: 'First name', message: 'is required' },
      { id: 'field-application-desired_move_in', label: 'desired move in', message: 'is not a date' },
      { id: 'field--b-', label: '&#60;b&#62;', message: 'odd' },
    ]);
  });
});

describe('phoneLink', () => {
  it('writes a North American number as people write it, with or without its leading 1', () => {
    expect(phoneLink('2175550134')).toEqual({ text: '(217) 555-0134', href: 'tel:+12175550134' });
    expect(phoneLink('12175550134')).toEqual({ text: '(217) 555-0134', href: 'tel:+12175550134' });
  });

  it('writes any other number as its digits after a plus sign', () => {
    expect(phoneLink('442079460000')).toEqual({ text: '+442079460000', href: 'tel:+442079460000' });
  });
});
