import { formPreset, FormApplicant } from '@app/contracts';
import { QuestionsSection } from './questions.section';

const context = { preset: formPreset(1), section: { kind: 'questions' as const }, applicant: {} as FormApplicant };
const answered = {
  'answers.evicted': 'no',
  'answers.judgements': 'no',
  'answers.bankruptcy': 'no',
  'answers.refused_rent': 'no',
  'answers.smoking': 'no',
  'answers.occupants': '2',
};

describe('the questions section', () => {
  const section = new QuestionsSection();

  it('checks each answer by its kind and keeps only the questions asked', () => {
    expect(section.parse({ ...answered, 'answers.eviction_details': 'ignored', 'answers.injected': 'x' }, context)).toEqual({
      value: { evicted: 'no', judgements: 'no', bankruptcy: 'no', refused_rent: 'no', smoking: 'no', occupants: '2' },
      problems: [],
    });
  });

  it('requires the follow-up once its answer is given, and says when it applies', () => {
    expect(section.parse({ ...answered, 'answers.evicted': 'yes', 'answers.occupants': 'two' }, context).problems).toEqual([
      { field: 'answers.eviction_details', message: 'must be answered' },
      { field: 'answers.occupants', message: 'must be a whole number' },
    ]);
    const followUp = section.page({}, context).questions.find((question) => question.name === 'answers.eviction_details');
    expect(followUp).toMatchObject({
      required: false,
      hint: expect.stringContaining('Only if you answered “Yes” to “Have you ever been evicted?”'),
    });
  });

  it('shows saved answers again, a multiple choice as its ticked options', () => {
    const preset = formPreset(2);
    const page = section.page(section.values({ pets: 'no', parking: 'Car space; Bicycle storage' }), { ...context, preset });
    const parking = page.questions.find((question) => question.name === 'answers.parking')!;
    expect(parking.options.filter((option) => option.checked).map((option) => option.label)).toEqual([
      'Car space',
      'Bicycle storage',
    ]);
  });
});
