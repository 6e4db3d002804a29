import { formPreset, FormPreset } from '@app/contracts';
import { formSteps, nextStep, previousStep, resumeStep } from './steps';

describe('the form’s steps', () => {
  const standard = formPreset(1);

  it('follow the preset’s sections for the primary applicant, documents left to their own page', () => {
    expect(formSteps(standard, 'primary')).toEqual([
      'contact',
      'details',
      'identity',
      'residence_history',
      'employment',
      'household',
      'emergency_contact',
      'questions',
      'review',
      'finish',
    ]);
  });

  it('never ask a guarantor for the unit, the household or the questions, nor a co-applicant for a household', () => {
    expect(formSteps(standard, 'guarantor')).toEqual([
      'contact',
      'identity',
      'residence_history',
      'employment',
      'review',
      'finish',
    ]);
    expect(formSteps(standard, 'co_applicant')).not.toContain('household');
    expect(formSteps(standard, 'co_applicant')).not.toContain('details');
  });

  it('always ask identity, and the preset’s questions when it has some but does not place them', () => {
    const bare: FormPreset = { ...standard, sections: [{ kind: 'employment' }] };
    expect(formSteps(bare, 'primary')).toEqual(['contact', 'details', 'identity', 'employment', 'questions', 'review', 'finish']);
  });

  it('resume at the first step not saved, the review once all are', () => {
    const steps = formSteps(standard, 'primary');
    expect(resumeStep(steps, [], false)).toBe('contact');
    expect(resumeStep(steps, [], true)).toBe('details');
    expect(resumeStep(steps, ['details', 'identity', 'employment'], true)).toBe('residence_history');
    expect(resumeStep(steps, steps, true)).toBe('review');
    expect(nextStep(steps, 'questions')).toBe('review');
    expect(previousStep(steps, 'identity')).toBe('details');
  });
});
