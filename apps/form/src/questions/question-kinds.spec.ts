import { FormQuestion } from '@app/contracts';
import { isAsked, QUESTION_KINDS } from './question-kinds';

const question = (kind: FormQuestion['kind'], extra: Partial<FormQuestion> = {}): FormQuestion => ({
  id: 'q',
  label: 'The question',
  kind,
  required: true,
  ...extra,
});

/** What `kind` makes of `raw` posted as the answer to `q`. */
function read(kind: FormQuestion['kind'], raw: string, extra: Partial<FormQuestion> = {}) {
  return QUESTION_KINDS[kind].read(question(kind, extra), 'answers.q', { 'answers.q': raw });
}

describe('the question kinds', () => {
  it('take text and an address as typed, an address only with a place in it', () => {
    expect(read('text', '  <b>hi</b>  ')).toEqual({ answer: '<b>hi</b>' });
    expect(read('text', '   ')).toBeNull();
    expect(read('text', 'x'.repeat(1001))).toEqual({ problem: 'must be at most 1000 characters' });
    expect(read('address', '1 Main St\nSpringfield')).toEqual({ answer: '1 Main St, Springfield' });
    expect(read('address', 'Springfield')).toEqual({ problem: 'must be a full address: street, city, state and ZIP code' });
  });

  it('take yes or no, one of the options, or several of them', () => {
    expect(read('yes_no', 'yes')).toEqual({ answer: 'yes' });
    expect(read('yes_no', 'maybe')).toEqual({ problem: 'must be yes or no' });
    const options = ['Cat', 'Dog', 'Fish'];
    expect(read('choice', 'Dog', { options })).toEqual({ answer: 'Dog' });
    expect(read('choice', 'Horse', { options })).toEqual({ problem: 'must be one of the options listed' });
    const several = question('choice', { options, multiple: true });
    expect(QUESTION_KINDS.choice.read(several, 'answers.q', { 'answers.q.0': 'yes', 'answers.q.2': 'yes' })).toEqual({
      answer: 'Cat; Fish',
    });
    expect(QUESTION_KINDS.choice.read(several, 'answers.q', {})).toBeNull();
  });

  it('normalize dates, money, numbers, phones and e-mail addresses, and refuse what is not one', () => {
    expect(read('date', '03/01/2027')).toEqual({ answer: '2027-03-01' });
    expect(read('date', '2024-02-30')).toEqual({ problem: 'must be a calendar date written MM/DD/YYYY or YYYY-MM-DD' });
    expect(read('money', '$1,850.5')).toEqual({ answer: '1850.50' });
    expect(read('money', 'lots')).toEqual({ problem: 'must be an amount in dollars, for example 1,850.00' });
    expect(read('number', '007')).toEqual({ answer: '7' });
    expect(read('number', '2.5')).toEqual({ problem: 'must be a whole number' });
    expect(read('phone', '(555) 010-1234')).toEqual({ answer: '5550101234' });
    expect(read('phone', '123')).toEqual({ problem: 'must be a phone number of 10 to 15 digits' });
    expect(read('email', 'a@example.com')).toEqual({ answer: 'a@example.com' });
    expect(read('email', '"><img onerror=x>@a.b')).toEqual({ problem: 'must be a valid e-mail address' });
  });

  it('draw each kind with its control, and mark the options chosen', () => {
    expect(QUESTION_KINDS.money.view(question('money'), 'answers.q', '12.00')).toMatchObject({
      control: 'input',
      inputmode: 'decimal',
      value: '12.00',
    });
    expect(QUESTION_KINDS.phone.view(question('phone'), 'answers.q', '')).toMatchObject({ type: 'tel', autocomplete: 'tel' });
    expect(QUESTION_KINDS.date.view(question('date'), 'answers.q', '')).toMatchObject({ type: 'date' });
    expect(QUESTION_KINDS.text.view(question('text', { help: 'Say why' }), 'answers.q', '')).toMatchObject({
      control: 'textarea',
      hint: 'Say why',
    });
    const several = question('choice', { options: ['Cat', 'Dog'], multiple: true });
    expect(QUESTION_KINDS.choice.view(several, 'answers.q', 'Dog').options).toEqual([
      { name: 'answers.q.0', value: 'yes', label: 'Cat', checked: false },
      { name: 'answers.q.1', value: 'yes', label: 'Dog', checked: true },
    ]);
    expect(QUESTION_KINDS.yes_no.view(question('yes_no'), 'answers.q', 'no').options.map((o) => o.checked)).toEqual([
      false,
      true,
    ]);
  });

  it('ask a follow-up only after the answer it depends on', () => {
    const followUp = question('text', { when: { question: 'evicted', answer: true } });
    expect(isAsked(followUp, { evicted: 'yes' })).toBe(true);
    expect(isAsked(followUp, { evicted: 'no' })).toBe(false);
    expect(isAsked(followUp, {})).toBe(false);
    const onChoice = question('text', { when: { question: 'pets', answer: 'Dog' } });
    expect(isAsked(onChoice, { pets: 'Cat; Dog' })).toBe(true);
    expect(isAsked(onChoice, { pets: 'Cat' })).toBe(false);
  });
});
