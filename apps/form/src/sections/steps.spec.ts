import { formPreset, FormPreset } from '@app/contracts';
import { formSteps, nextStep, previousStep, resumeStep } from './steps';

describe('the form’s steps', () => {
  const standard = formPreset(1);

  it('follow the preset’s sections for the primary applicant, the documents page where the preset places it', () => {
    expect(formSteps(standard, 'primary')).toEqual([
      'contact',
      'details',
      'identity',
      'residence_history',
      'employment',
      'household',
      'emergency_contact',
      'documents',
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
      'documents',
      'review',
      'finish',
    ]);
    expect(formSteps(standard, 'co_applicant')).not.toContain('household');
    expect(formSteps(standard, 'co_applicant')).not.toContain('details');
  });

  it('always ask identity, and the preset’s questions when it has some but does not place them', () => {
    const bare: FormPreset = { ...standard, sections: [{ kind: 'employment' }] };
    expect(formSteps({ ...bare, documents: [] }, 'primary')).toEqual([
      'contact',
      'details',
      'identity',
      'employment',
      'questions',
      'review',
      'finish',
    ]);
  });

  it('ask for documents on their page only when the preset asks for some, last when it does not place the page', () => {
    const bare: FormPreset = { ...standard, sections: [{ kind: 'employment' }] };
    expect(formSteps(bare, 'primary')).toEqual([
      'contact',
      'details',
      'identity',
      'employment',
      'questions',
      'documents',
      'review',
      'finish',
    ]);
    expect(formSteps({ ...standard, documents: [] }, 'primary')).not.toContain('documents');
    expect(formSteps(formPreset(3), 'co_applicant')).toEqual([
      'contact',
      'identity',
      'documents',
      'questions',
      'review',
      'finish',
    ]);
    expect(formSteps(formPreset(2), 'primary')).not.toContain('documents');
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
