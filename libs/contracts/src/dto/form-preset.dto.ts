import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { FieldProblem } from '../errors';
import {
  CHOICE_SEPARATOR,
  FORM_DOCUMENT_KINDS,
  FORM_PRESET_LIMITS,
  FORM_QUESTION_KINDS,
  FORM_SECTION_KINDS,
  FormDocumentKind,
  FormPreset,
  FormQuestionKind,
  FormSectionKind,
} from '../form-presets';
import {
  BooleanField,
  CrossChecked,
  EnumField,
  IntegerField,
  isPlainObject,
  NestedField,
  NestedListField,
  StringField,
  StringListField,
  StringOrBooleanField,
} from '../validation/fields';

const IDENTIFIER = {
  regex: /^[a-z][a-z0-9_]*$/,
  message: 'must start with a lower-case letter and hold only lower-case letters, digits and _',
};

/** The `when` of a question: shown only when an earlier question got this answer. */
export class FormQuestionConditionInput {
  @StringField({ required: true, max: FORM_PRESET_LIMITS.id, pattern: IDENTIFIER })
  @ApiProperty({ description: 'The id of an earlier yes_no or choice question of the same preset.', example: 'evicted' })
  question: string;

  @StringOrBooleanField({ required: true, max: FORM_PRESET_LIMITS.option })
  @ApiProperty({
    description: 'true or false for a yes_no question; one of the options of a choice question.',
    example: true,
  })
  answer: string | boolean;
}

/**
 * A question: what only a choice question has is refused on the others, and an option that holds
 * the separator of a multiple choice answer (its answer could not be told from two options).
 */
@CrossChecked<FormQuestionInput>((question) => {
  const problems: FieldProblem[] = [];
  const choice = question.kind === 'choice';
  if (choice && question.options === undefined) problems.push({ field: 'options', message: 'is required for a choice question' });
  if (!choice && question.options !== undefined) problems.push({ field: 'options', message: 'is only for choice questions' });
  if (!choice && question.multiple !== undefined) problems.push({ field: 'multiple', message: 'is only for choice questions' });
  // Checked across fields even when options is wrong on its own: it may be no list of strings.
  const options: unknown = question.options;
  if (Array.isArray(options) && options.some((option) => String(option).includes(CHOICE_SEPARATOR)))
    problems.push({
      field: 'options',
      message: `must not hold "${CHOICE_SEPARATOR}" in an option: it separates the options of a multiple choice answer`,
    });
  return problems;
})
export class FormQuestionInput {
  @StringField({ required: true, max: FORM_PRESET_LIMITS.id, pattern: IDENTIFIER })
  @ApiProperty({ description: 'Names the answer in the applicant’s form_answers; unique in the preset.', example: 'evicted' })
  id: string;

  @StringField({ required: true, trim: true, min: 1, max: FORM_PRESET_LIMITS.label })
  @ApiProperty({ example: 'Have you ever been evicted?' })
  label: string;

  @EnumField(FORM_QUESTION_KINDS, { required: true })
  @ApiProperty({ example: 'yes_no' })
  kind: FormQuestionKind;

  @BooleanField()
  @ApiProperty({ description: 'Whether the applicant must answer it.', default: false, example: true })
  required?: boolean;

  @StringField({ trim: true, max: FORM_PRESET_LIMITS.help })
  @ApiProperty({ description: 'Shown under the label.', example: 'Within the last seven years.' })
  help?: string;

  @StringListField({ min: 1, max: FORM_PRESET_LIMITS.options, maxLength: FORM_PRESET_LIMITS.option })
  @ApiProperty({
    description: 'choice questions only, and required for them: the answers to choose from.',
    example: ['Cat', 'Dog'],
  })
  options?: string[];

  @BooleanField()
  @ApiProperty({ description: 'choice questions only: several options may be chosen.', default: false, example: false })
  multiple?: boolean;

  @NestedField(() => FormQuestionConditionInput)
  @ApiProperty({ description: 'Asks the question only when an earlier question got the given answer.' })
  when?: FormQuestionConditionInput;
}

export class FormDisclosureInput {
  @StringField({ required: true, max: FORM_PRESET_LIMITS.id, pattern: IDENTIFIER })
  @ApiProperty({ description: 'Unique in the preset.', example: 'pet_policy' })
  id: string;

  @StringField({ required: true, trim: true, min: 1, max: FORM_PRESET_LIMITS.disclosureTitle })
  @ApiProperty({ example: 'Pet policy' })
  title: string;

  @StringField({ required: true, trim: true, min: 1, max: FORM_PRESET_LIMITS.disclosureText })
  @ApiProperty({ example: 'Pets are allowed with the landlord’s written consent.' })
  text: string;
}

/** A step of the form; `years` and `max_gap_days` belong to residence_history alone. */
@CrossChecked<FormSectionInput>((section) =>
  section.kind === 'residence_history'
    ? []
    : (['years', 'max_gap_days'] as const)
        .filter((field) => section[field] !== undefined)
        .map((field) => ({ field, message: 'is only for the residence_history section' })),
)
export class FormSectionInput {
  @EnumField(FORM_SECTION_KINDS, { required: true })
  @ApiProperty({ example: 'residence_history' })
  kind: FormSectionKind;

  @IntegerField({ min: FORM_PRESET_LIMITS.minYears, max: FORM_PRESET_LIMITS.maxYears })
  @ApiProperty({
    description: 'residence_history only: the years of addresses the applicant gives.',
    maximum: FORM_PRESET_LIMITS.maxYears,
    example: 3,
  })
  years?: number;

  @IntegerField({ min: 0, max: FORM_PRESET_LIMITS.maxGapDays })
  @ApiProperty({
    description:
      'residence_history only: the most days the history may leave out between moving out of one address and into ' +
      'the next; 31 when not given.',
    maximum: FORM_PRESET_LIMITS.maxGapDays,
    example: 31,
  })
  max_gap_days?: number;
}

export class FormDocumentRequestInput {
  @EnumField(FORM_DOCUMENT_KINDS, { required: true })
  @ApiProperty({ example: 'photo_id' })
  kind: FormDocumentKind;

  @BooleanField()
  @ApiProperty({ default: false, example: true })
  required?: boolean;
}

/** The fields of a preset, as create (name required) and update (each optional) declare them. */
const presetFields = (nameRequired: boolean) => ({
  name: applyDecorators(
    StringField({ required: nameRequired, trim: true, min: 1, max: FORM_PRESET_LIMITS.name }),
    ApiProperty({ example: 'Pets welcome' }),
  ),
  questions: applyDecorators(
    NestedListField(() => FormQuestionInput, { max: FORM_PRESET_LIMITS.questions }),
    ApiProperty({ description: 'Asked on the form’s questions step, in this order.', default: [] }),
  ),
  disclosures: applyDecorators(
    NestedListField(() => FormDisclosureInput, { max: FORM_PRESET_LIMITS.disclosures }),
    ApiProperty({ description: 'Shown on the last step; the applicant consents to them.', default: [] }),
  ),
  sections: applyDecorators(
    NestedListField(() => FormSectionInput, { max: FORM_PRESET_LIMITS.sections }),
    ApiProperty({ description: 'The steps of the form, in order; each kind at most once.', default: [{ kind: 'questions' }] }),
  ),
  documents: applyDecorators(
    NestedListField(() => FormDocumentRequestInput, { max: FORM_PRESET_LIMITS.documents }),
    ApiProperty({ description: 'What the documents step asks for; each kind at most once.', default: [] }),
  ),
});

const CREATE = presetFields(true);
const CHANGE = presetFields(false);

/** The fields whose checks span a preset; each list is checked when it is given. */
interface PresetLists {
  questions?: unknown;
  disclosures?: unknown;
  sections?: unknown;
  documents?: unknown;
}

/**
 * Ids and kinds said once, and each `when` naming an earlier question whose answers include
 * the one it gives: a condition can never be met otherwise, and the form asks in order.
 */
export function presetProblems(preset: PresetLists): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const questions = objectsOf(preset.questions);
  const earlier = new Map<unknown, Record<string, unknown>>();
  questions.forEach((question, index) => {
    const at = `questions.${index}`;
    if (earlier.has(question.id)) problems.push({ field: `${at}.id`, message: 'must not repeat the id of an earlier question' });
    const when = question.when;
    if (isPlainObject(when)) {
      const asked = earlier.get(when.question);
      const problem = asked ? answerProblem(asked, when.answer) : null;
      if (!asked) problems.push({ field: `${at}.when.question`, message: 'must name an earlier question of the preset' });
      else if (problem)
        problems.push(
          problem.field === 'question'
            ? { field: `${at}.when.question`, message: problem.message }
            : { field: `${at}.when.answer`, message: problem.message },
        );
    }
    if (!earlier.has(question.id)) earlier.set(question.id, question);
  });
  problems.push(...repeated(preset.disclosures, 'disclosures', 'id', 'must not repeat the id of an earlier disclosure'));
  problems.push(...repeated(preset.sections, 'sections', 'kind', 'must not repeat an earlier section'));
  problems.push(...repeated(preset.documents, 'documents', 'kind', 'must not repeat an earlier document'));
  return problems;
}

/** Why `answer` can never be the answer to `question`, or null when it can be. */
function answerProblem(
  question: Record<string, unknown>,
  answer: unknown,
): { field: 'question' | 'answer'; message: string } | null {
  if (question.kind === 'yes_no')
    return typeof answer === 'boolean' ? null : { field: 'answer', message: 'must be true or false for a yes_no question' };
  if (question.kind === 'choice') {
    const options = Array.isArray(question.options) ? question.options : [];
    return options.includes(answer)
      ? null
      : { field: 'answer', message: `must be one of the options of question ${String(question.id)}` };
  }
  return { field: 'question', message: 'must name a yes_no or choice question' };
}

function objectsOf(list: unknown): Record<string, unknown>[] {
  return Array.isArray(list) ? list.map((item) => (isPlainObject(item) ? item : {})) : [];
}

function repeated(list: unknown, name: string, key: string, message: string): FieldProblem[] {
  const seen = new Set<unknown>();
  const problems: FieldProblem[] = [];
  objectsOf(list).forEach((item, index) => {
    if (item[key] !== undefined && seen.has(item[key])) problems.push({ field: `${name}.${index}.${key}`, message });
    seen.add(item[key]);
  });
  return problems;
}

/** `form_preset` inside POST /api/v2/form_presets. */
@CrossChecked<FormPresetInput>(presetProblems)
export class FormPresetInput {
  @CREATE.name
  name: string;

  @CREATE.questions
  questions?: FormQuestionInput[];

  @CREATE.disclosures
  disclosures?: FormDisclosureInput[];

  @CREATE.sections
  sections?: FormSectionInput[];

  @CREATE.documents
  documents?: FormDocumentRequestInput[];
}

export class CreateFormPresetRequest {
  @NestedField(() => FormPresetInput, { required: true })
  form_preset: FormPresetInput;
}

/**
 * `form_preset` inside PATCH /api/v2/form_presets/:id: any field of the create, each checked as
 * there; a list given replaces the whole list. The change becomes the preset's next version.
 */
@CrossChecked<FormPresetChanges>(presetProblems)
export class FormPresetChanges {
  @CHANGE.name
  name?: string;

  @CHANGE.questions
  questions?: FormQuestionInput[];

  @CHANGE.disclosures
  disclosures?: FormDisclosureInput[];

  @CHANGE.sections
  sections?: FormSectionInput[];

  @CHANGE.documents
  documents?: FormDocumentRequestInput[];
}

export class UpdateFormPresetRequest {
  @NestedField(() => FormPresetChanges, { required: true })
  form_preset: FormPresetChanges;
}

export class FormPresetResponse {
  @ApiProperty({ type: FormPreset })
  form_preset: FormPreset;
}

/** What a new preset holds for each list its creator leaves out. */
export const FORM_PRESET_DEFAULTS = {
  questions: [],
  disclosures: [],
  sections: [{ kind: 'questions' }],
  documents: [],
} as const satisfies Partial<Record<keyof FormPresetInput, unknown>>;

export class FormPresetPageResponse {
  @ApiProperty({
    type: [FormPreset],
    description: 'At most `limit` presets, newest first: the client’s own, then the shipped defaults.',
  })
  form_presets: FormPreset[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
    example: 'djE6MTI',
  })
  next_cursor: string | null;
}
