import { formPreset, FORM_PRESETS } from '../form-presets';
import { parseRequest } from '../validation/parse';
import { FormContactInput, formAnswerProblems, FormIdentityInput, presetAnswers } from './application-form.dto';

describe('the application form contracts', () => {
  const standard = formPreset(1);

  it('ship at least two presets, each with questions and disclosures, and fall back to the first', () => {
    expect(FORM_PRESETS.length).toBeGreaterThanOrEqual(2);
    for (const preset of FORM_PRESETS) {
      expect(preset.questions.length).toBeGreaterThan(0);
      expect(preset.disclosures.length).toBeGreaterThan(0);
    }
    expect(formPreset(2).id).toBe(2);
    expect(formPreset(99)).toBe(FORM_PRESETS[0]);
  });

  it('validate contact details as the API validates an applicant', () => {
    expect(
      parseRequest(FormContactInput, { first_name: ' Ada ', last_name: 'L', email: 'a@example.com', phone: '(555) 010-1234' }),
    ).toEqual({
      first_name: 'Ada',
      last_name: 'L',
      email: 'a@example.com',
      phone: '5550101234',
    });
    expect(() => parseRequest(FormContactInput, { first_name: 'Ada', last_name: 'L', email: 'nope' })).toThrow(
      'email must be a valid e-mail address',
    );
  });

  it('require a past date of birth and a well-formed SSN, normalized as through the API', () => {
    expect(parseRequest(FormIdentityInput, { dob: '04/12/1990', id_number: '123-45-6789' })).toEqual({
      dob: '1990-04-12',
      id_number: '123456789',
    });
    expect(() => parseRequest(FormIdentityInput, { dob: '2999-01-01', id_number: '12345' })).toThrow(
      'dob must be a date in the past',
    );
  });

  it('find unanswered required questions, bad yes/no answers and missing consent', () => {
    expect(formAnswerProblems(standard, { current_address: 'x', evicted: 'no' }, true)).toEqual([]);
    expect(formAnswerProblems(standard, { evicted: 'maybe' }, false)).toEqual([
      { field: 'answers.current_address', message: 'must be answered' },
      { field: 'answers.evicted', message: 'must be yes or no' },
      { field: 'consent', message: 'must be given to apply' },
    ]);
  });

  it('keep only the answers to the preset’s questions', () => {
    expect(presetAnswers(standard, { current_address: ' 1 Main St ', evicted: 'no', injected: 'x', employer: '' })).toEqual({
      current_address: '1 Main St',
      evicted: 'no',
    });
  });
});
