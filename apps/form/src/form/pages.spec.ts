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

describe('summarize, on a page of repeated entries', () => {
  /** As section.eta renders a list: its heading, its own problem, then each entry's fieldset. */
  const listPage = `
<section class="entries" aria-labelledby="field-residences-heading">
<h2 id="field-residences-heading">Where you have lived</h2>
<p class="error-message" id="field-residences" tabindex="-1">must cover the last 3 years</p>
<fieldset class="entry"><legend>Address 1</legend>
<label for="field-residences-0-from">Moved in</label><input id="field-residences-0-from" name="residences.0.from">
</fieldset>
<fieldset class="entry"><legend>Address 2</legend>
<label for="field-residences-1-from">Moved in</label><input id="field-residences-1-from" name="residences.1.from">
</fieldset>
</section>
`;

  it('names a problem of the whole list by its heading, and one of an entry by the entry and its label', () => {
    expect(
      summarize(listPage, [
        { field: 'residences.1.from', message: 'is required' },
        { field: 'residences', message: 'must cover the last 3 years' },
      ]),
    ).toEqual([
      { id: 'field-residences', label: 'Where you have lived', message: 'must cover the last 3 years' },
      { id: 'field-residences-1-from', label: 'Address 2: Moved in', message: 'is required' },
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
