import { ErrorCode, FieldProblem, ServiceError } from '../errors';
import { parseRequest } from '../validation/parse';
import { CHOICE_SEPARATOR, FORM_PRESET_LIMITS } from '../form-presets';
import { CreateFormPresetRequest, FormPresetInput, UpdateFormPresetRequest } from './form-preset.dto';

function parsePreset(fields: Record<string, unknown>): FormPresetInput {
  return parseRequest(CreateFormPresetRequest, JSON.parse(JSON.stringify({ form_preset: fields }))).form_preset;
}

function problems(fields: Record<string, unknown>, type: new () => object = CreateFormPresetRequest): FieldProblem[] {
  try {
    parseRequest(type, { form_preset: fields });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(error.message).toBe(`${error.details![0].field} ${error.details![0].message}`);
    return error.details ?? [];
  }
  throw new Error('the preset was accepted');
}

const EVICTED = { id: 'evicted', label: 'Have you ever been evicted?', kind: 'yes_no', required: true };
const PETS = { id: 'pets', label: 'Pets', kind: 'choice', options: ['Cat', 'Dog'], multiple: true };
const preset = (questions: unknown[], more: Record<string, unknown> = {}) => ({ name: 'Pets welcome', questions, ...more });

describe('CreateFormPresetRequest', () => {
  it('accepts every kind of question, a condition, disclosures, sections and documents', () => {
    const fields = {
      name: '  Pets welcome ',
      questions: [
        EVICTED,
        {
          id: 'eviction_details',
          label: ' Explain the eviction ',
          kind: 'text',
          help: 'When and why',
          when: { question: 'evicted', answer: true },
        },
        PETS,
        { id: 'dog_breed', label: 'Breed', kind: 'text', when: { question: 'pets', answer: 'Dog' } },
        { id: 'moved_in', label: 'Moved in', kind: 'date' },
        { id: 'rent', label: 'Rent', kind: 'money' },
        { id: 'people', label: 'People', kind: 'number' },
        { id: 'landlord_phone', label: 'Phone', kind: 'phone' },
        { id: 'landlord_email', label: 'E-mail', kind: 'email' },
        { id: 'previous_address', label: 'Address', kind: 'address' },
      ],
      disclosures: [{ id: 'pet_policy', title: 'Pet policy', text: 'A pet deposit applies.' }],
      sections: [{ kind: 'identity' }, { kind: 'residence_history', years: 3 }, { kind: 'questions' }],
      documents: [{ kind: 'photo_id', required: true }],
    };
    const parsed = parsePreset(fields);
    expect(parsed.name).toBe('Pets welcome');
    expect(parsed.questions![1]).toEqual({
      id: 'eviction_details',
      label: 'Explain the eviction',
      kind: 'text',
      help: 'When and why',
      when: { question: 'evicted', answer: true },
    });
    expect(parsed.questions).toHaveLength(10);
    expect(parsed.sections).toEqual(fields.sections);
    expect(parsed.documents).toEqual(fields.documents);
  });

  it('needs only a name', () => {
    expect(parsePreset({ name: 'Bare' })).toEqual({ name: 'Bare' });
  });

  it('refuses an unknown kind, naming the question', () => {
    expect(problems(preset([EVICTED, { id: 'x', label: 'X', kind: 'colour' }]))).toEqual([
      { field: 'form_preset.questions.1.kind', message: expect.stringMatching(/^must be one of text, yes_no, choice, /) },
    ]);
  });

  it('refuses a choice without options and options or multiple on other kinds', () => {
    expect(problems(preset([{ id: 'pets', label: 'Pets', kind: 'choice' }]))).toEqual([
      { field: 'form_preset.questions.0.options', message: 'is required for a choice question' },
    ]);
    expect(problems(preset([{ ...EVICTED, options: ['a'], multiple: false }]))).toEqual([
      { field: 'form_preset.questions.0.options', message: 'is only for choice questions' },
      { field: 'form_preset.questions.0.multiple', message: 'is only for choice questions' },
    ]);
  });

  it('refuses empty, repeated or overlong options', () => {
    const choice = (options: unknown) => preset([{ ...PETS, options }]);
    const field = 'form_preset.questions.0.options';
    expect(problems(choice([]))).toEqual([{ field, message: 'must have at least 1 entry' }]);
    expect(problems(choice(['Cat', ' Cat ']))).toEqual([{ field, message: 'must not list an entry twice' }]);
    expect(problems(choice(['x'.repeat(FORM_PRESET_LIMITS.option + 1)]))).toEqual([
      { field, message: `must hold strings of at most ${FORM_PRESET_LIMITS.option} characters` },
    ]);
  });

  it('refuses an option holding the text that separates the options of a multiple choice answer', () => {
    const field = 'form_preset.questions.0.options';
    const message = `must not hold "${CHOICE_SEPARATOR}" in an option: it separates the options of a multiple choice answer`;
    expect(problems(preset([{ ...PETS, options: ['Cats; dogs', 'Fish'] }]))).toEqual([{ field, message }]);
    // A single choice is refused too: its answer is matched against a condition as the options of one.
    expect(problems(preset([{ ...PETS, multiple: false, options: ['None', 'Cats; dogs'] }]))).toEqual([{ field, message }]);
    expect(parsePreset(preset([{ ...PETS, options: ['Cats;dogs', 'Fish;', 'Birds'] }])).questions![0].options).toHaveLength(3);
    expect(problems(preset([{ ...PETS, options: 'Cats; dogs' }]))).toEqual([{ field, message: 'must be an array of strings' }]);
  });

  it('refuses a condition on an unknown question, on a later one and on itself', () => {
    const unknown = { id: 'details', label: 'Details', kind: 'text', when: { question: 'nowhere', answer: true } };
    expect(problems(preset([EVICTED, unknown]))).toEqual([
      { field: 'form_preset.questions.1.when.question', message: 'must name an earlier question of the preset' },
    ]);
    const before = { ...unknown, when: { question: 'evicted', answer: true } };
    expect(problems(preset([before, EVICTED]))).toEqual([
      { field: 'form_preset.questions.0.when.question', message: 'must name an earlier question of the preset' },
    ]);
    expect(problems(preset([{ ...EVICTED, when: { question: 'evicted', answer: true } }]))).toHaveLength(1);
  });

  it('refuses a condition answer the question cannot give', () => {
    const when = (question: string, answer: unknown) => ({ id: 'more', label: 'More', kind: 'text', when: { question, answer } });
    expect(problems(preset([EVICTED, when('evicted', 'yes')]))).toEqual([
      { field: 'form_preset.questions.1.when.answer', message: 'must be true or false for a yes_no question' },
    ]);
    expect(problems(preset([PETS, when('pets', 'Fish')]))).toEqual([
      { field: 'form_preset.questions.1.when.answer', message: 'must be one of the options of question pets' },
    ]);
    const text = { id: 'employer', label: 'Employer', kind: 'text' };
    expect(problems(preset([text, when('employer', 'ACME')]))).toEqual([
      { field: 'form_preset.questions.1.when.question', message: 'must name a yes_no or choice question' },
    ]);
    expect(problems(preset([EVICTED, when('evicted', 3)]))).toEqual([
      { field: 'form_preset.questions.1.when.answer', message: 'must be a non-empty string, true or false' },
    ]);
  });

  it('refuses repeated question ids, disclosure ids, sections and documents', () => {
    const fields = preset([EVICTED, { ...EVICTED, label: 'Again' }], {
      disclosures: [
        { id: 'a', title: 'A', text: 'a' },
        { id: 'a', title: 'B', text: 'b' },
      ],
      sections: [{ kind: 'questions' }, { kind: 'identity' }, { kind: 'questions' }],
      documents: [
        { kind: 'photo_id', required: true },
        { kind: 'photo_id', required: false },
      ],
    });
    expect(problems(fields)).toEqual([
      { field: 'form_preset.questions.1.id', message: 'must not repeat the id of an earlier question' },
      { field: 'form_preset.disclosures.1.id', message: 'must not repeat the id of an earlier disclosure' },
      { field: 'form_preset.sections.2.kind', message: 'must not repeat an earlier section' },
      { field: 'form_preset.documents.1.kind', message: 'must not repeat an earlier document' },
    ]);
  });

  it('refuses an unknown section, years out of 1..10 and years on another section', () => {
    expect(
      problems(
        preset([], {
          sections: [{ kind: 'pets' }, { kind: 'residence_history', years: 0 }, { kind: 'employment', years: 2 }],
        }),
      ),
    ).toEqual([
      { field: 'form_preset.sections.0.kind', message: expect.stringMatching(/^must be one of identity, /) },
      { field: 'form_preset.sections.1.years', message: 'must be at least 1' },
      { field: 'form_preset.sections.2.years', message: 'is only for the residence_history section' },
    ]);
    expect(problems(preset([], { sections: [{ kind: 'residence_history', years: 11 }] }))).toEqual([
      { field: 'form_preset.sections.0.years', message: 'must be at most 10' },
    ]);
  });

  it('names a problem of each field: missing, wrong type, unknown', () => {
    expect(
      problems({
        questions: [{ id: 'Bad Id', kind: 'text', colour: 'red' }, 'text'],
        sections: {},
      }),
    ).toEqual([
      // The entries of a list are checked once the list itself is right.
      { field: 'form_preset.name', message: 'is required' },
      { field: 'form_preset.questions', message: 'must hold objects only' },
      { field: 'form_preset.sections', message: 'must be an array' },
      { field: 'form_preset.questions.0.colour', message: 'is not a known field' },
    ]);
  });

  it('holds each list to its limit', () => {
    const many = Array.from({ length: FORM_PRESET_LIMITS.questions + 1 }, (_, i) => ({ id: `q${i}`, label: 'Q', kind: 'text' }));
    expect(problems(preset(many))).toEqual([
      { field: 'form_preset.questions', message: `must have at most ${FORM_PRESET_LIMITS.questions} entries` },
    ]);
    const long = { id: 'q', label: 'x'.repeat(FORM_PRESET_LIMITS.label + 1), kind: 'text' };
    expect(problems(preset([long]))).toEqual([
      { field: 'form_preset.questions.0.label', message: `must be at most ${FORM_PRESET_LIMITS.label} characters` },
    ]);
  });
});

describe('UpdateFormPresetRequest', () => {
  it('takes any field alone and checks it as the create does', () => {
    expect(parseRequest(UpdateFormPresetRequest, { form_preset: { name: 'Renamed' } }).form_preset).toEqual({ name: 'Renamed' });
    expect(problems({ questions: [{ ...PETS, options: undefined }] }, UpdateFormPresetRequest)).toEqual([
      { field: 'form_preset.questions.0.options', message: 'is required for a choice question' },
    ]);
  });
});
