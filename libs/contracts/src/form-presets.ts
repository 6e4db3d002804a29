import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The kinds of question a preset can ask. Each kind is rendered and checked by one small class in
 * the form (apps/form); the answers are returned in the applicant's form_answers, by question id.
 */
export const FORM_QUESTION_KINDS = ['text', 'yes_no', 'choice', 'date', 'money', 'number', 'phone', 'email', 'address'] as const;
export type FormQuestionKind = (typeof FORM_QUESTION_KINDS)[number];

/**
 * The steps of the form a preset can include, in the order the form shows them. `questions` is
 * the step that asks the preset's own questions.
 */
export const FORM_SECTION_KINDS = [
  'identity',
  'residence_history',
  'employment',
  'household',
  'emergency_contact',
  'documents',
  'questions',
] as const;
export type FormSectionKind = (typeof FORM_SECTION_KINDS)[number];

/** The documents a preset can ask an applicant to upload. */
export const FORM_DOCUMENT_KINDS = ['photo_id', 'proof_of_income', 'other'] as const;
export type FormDocumentKind = (typeof FORM_DOCUMENT_KINDS)[number];

/**
 * What a client's preset may hold, at most; the shipped ones hold less. They keep a preset within
 * the 64 KiB a request body may have and the form's pages short enough to fill in; docs/integrators/api.md
 * lists them.
 */
export const FORM_PRESET_LIMITS = {
  name: 255,
  questions: 100,
  /** Question and disclosure ids: a lower-case letter, then lower-case letters, digits and _. */
  id: 64,
  label: 500,
  help: 1000,
  options: 50,
  option: 255,
  disclosures: 20,
  disclosureTitle: 255,
  disclosureText: 5000,
  sections: FORM_SECTION_KINDS.length,
  documents: FORM_DOCUMENT_KINDS.length,
  minYears: 1,
  maxYears: 10,
  maxGapDays: 365,
} as const;

/**
 * Days an address history may leave unaccounted for between moving out of one address and into
 * the next, when a preset's residence_history does not say (max_gap_days): a month between leases.
 */
export const DEFAULT_RESIDENCE_GAP_DAYS = 31;

/** Shows a question only when another question (asked before it) got the given answer. */
export class FormQuestionCondition {
  @ApiProperty({ description: 'The id of an earlier question of the same preset.', example: 'evicted' })
  question: string;

  @ApiProperty({
    description: 'The answer that shows the question: true or false for yes_no, one of the options for choice.',
    oneOf: [{ type: 'string' }, { type: 'boolean' }],
    example: true,
  })
  answer: string | boolean;
}

export class FormQuestion {
  @ApiProperty({ description: 'Names the answer in the applicant’s form_answers.', example: 'current_landlord' })
  id: string;

  @ApiProperty({ example: 'Name and phone number of your current landlord' })
  label: string;

  @ApiProperty({ enum: FORM_QUESTION_KINDS, example: 'text' })
  kind: FormQuestionKind;

  @ApiProperty({ example: true })
  required: boolean;

  @ApiPropertyOptional({ description: 'Shown under the label.', example: 'Include the area code.' })
  help?: string;

  @ApiPropertyOptional({
    description: 'The choices of a choice question.',
    type: [String],
    maxItems: FORM_PRESET_LIMITS.options,
    example: ['Cat', 'Dog'],
  })
  options?: string[];

  @ApiPropertyOptional({ description: 'A choice question that takes several of its options.', example: false })
  multiple?: boolean;

  @ApiPropertyOptional({ type: FormQuestionCondition })
  when?: FormQuestionCondition;
}

export class FormDisclosure {
  @ApiProperty({ example: 'screening' })
  id: string;

  @ApiProperty({ example: 'Tenant screening' })
  title: string;

  @ApiProperty({ example: 'Your application may be screened with a credit and background check.' })
  text: string;
}

export class FormSection {
  @ApiProperty({ enum: FORM_SECTION_KINDS, example: 'residence_history' })
  kind: FormSectionKind;

  @ApiPropertyOptional({
    description: 'residence_history only: the years of addresses the applicant gives (1 to 10).',
    type: 'integer',
    example: 3,
  })
  years?: number;

  @ApiPropertyOptional({
    description:
      'residence_history only: the most days the history may leave out between moving out of one address and into ' +
      'the next (0 to 365); 31 when not given.',
    type: 'integer',
    example: 31,
  })
  max_gap_days?: number;
}

export class FormDocumentRequest {
  @ApiProperty({ enum: FORM_DOCUMENT_KINDS, example: 'photo_id' })
  kind: FormDocumentKind;

  @ApiProperty({ example: true })
  required: boolean;
}

export class FormPreset {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({
    type: 'integer',
    description: 'Goes up by one on each update; an application keeps the version it was filled with.',
    example: 1,
  })
  version: number;

  @ApiProperty({ description: 'Shipped with the service and offered to every client; cannot be changed.', example: true })
  default: boolean;

  @ApiProperty({ example: 'Standard residential' })
  name: string;

  @ApiProperty({ type: [FormQuestion], maxItems: FORM_PRESET_LIMITS.questions })
  questions: FormQuestion[];

  @ApiProperty({
    type: [FormDisclosure],
    maxItems: FORM_PRESET_LIMITS.disclosures,
    description: 'Shown on the last step; the applicant consents to them.',
  })
  disclosures: FormDisclosure[];

  @ApiProperty({ type: [FormSection], maxItems: FORM_PRESET_LIMITS.sections, description: 'The steps of the form, in order.' })
  sections: FormSection[];

  @ApiProperty({
    type: [FormDocumentRequest],
    maxItems: FORM_PRESET_LIMITS.documents,
    description: 'What the documents step asks each applicant to upload.',
  })
  documents: FormDocumentRequest[];
}

const SCREENING: FormDisclosure = {
  id: 'screening',
  title: 'Tenant screening',
  text:
    'By applying you authorize the property manager to obtain a consumer credit report and a background check ' +
    'about you, and to verify the information you give here.',
};

/**
 * The form presets every client can choose from (a property's form_preset_id). They ship with the
 * service; the form falls back to the first for an id that names none.
 */
export const FORM_PRESETS: readonly FormPreset[] = [
  {
    id: 1,
    version: 1,
    default: true,
    name: 'Standard residential',
    questions: [
      { id: 'evicted', label: 'Have you ever been evicted?', kind: 'yes_no', required: true },
      {
        id: 'eviction_details',
        label: 'Explain the eviction',
        kind: 'text',
        required: true,
        help: 'When, where and why.',
        when: { question: 'evicted', answer: true },
      },
      { id: 'judgements', label: 'Has a court ever ruled against you over a debt or a lease?', kind: 'yes_no', required: true },
      { id: 'bankruptcy', label: 'Have you filed for bankruptcy in the last 7 years?', kind: 'yes_no', required: true },
      { id: 'refused_rent', label: 'Have you ever refused to pay rent?', kind: 'yes_no', required: true },
      { id: 'smoking', label: 'Does anyone who will live here smoke?', kind: 'yes_no', required: true },
      {
        id: 'heard_from',
        label: 'How did you hear about this home?',
        kind: 'choice',
        required: false,
        options: ['Listing site', 'Sign on the property', 'A friend', 'Other'],
      },
      { id: 'lease_start', label: 'Earliest date you could sign a lease', kind: 'date', required: false },
      { id: 'savings', label: 'Savings you could show, in dollars', kind: 'money', required: false },
      { id: 'occupants', label: 'How many people will live here in all?', kind: 'number', required: true },
      { id: 'reference_phone', label: 'Phone number of a personal reference', kind: 'phone', required: false },
      { id: 'reference_email', label: 'E-mail address of a personal reference', kind: 'email', required: false },
      { id: 'mailing_address', label: 'Mailing address, if not your current address', kind: 'address', required: false },
    ],
    disclosures: [SCREENING],
    sections: [
      { kind: 'identity' },
      { kind: 'residence_history', years: 3 },
      { kind: 'employment' },
      { kind: 'household' },
      { kind: 'emergency_contact' },
      { kind: 'documents' },
      { kind: 'questions' },
    ],
    // Offered, not required: the documents page takes them, completing the form does not wait for them.
    documents: [
      { kind: 'photo_id', required: false },
      { kind: 'proof_of_income', required: false },
    ],
  },
  {
    id: 2,
    version: 1,
    default: true,
    name: 'Pets and vehicles',
    questions: [
      { id: 'pets', label: 'Do you have pets?', kind: 'yes_no', required: true },
      {
        id: 'pet_details',
        label: 'Which pets (kind, breed, weight)?',
        kind: 'text',
        required: true,
        when: { question: 'pets', answer: true },
      },
      {
        id: 'parking',
        label: 'Parking you need',
        kind: 'choice',
        required: false,
        multiple: true,
        options: ['Car space', 'Motorcycle space', 'Bicycle storage'],
      },
    ],
    disclosures: [
      SCREENING,
      {
        id: 'pet_policy',
        title: 'Pet policy',
        text: 'Pets are allowed with the landlord’s written consent; a pet deposit may apply.',
      },
    ],
    sections: [{ kind: 'identity' }, { kind: 'residence_history', years: 1 }, { kind: 'household' }, { kind: 'questions' }],
    documents: [],
  },
  {
    id: 3,
    version: 1,
    default: true,
    name: 'Standard with documents',
    questions: [
      { id: 'current_address', label: 'Current address', kind: 'text', required: true },
      { id: 'employer', label: 'Current employer', kind: 'text', required: false },
    ],
    disclosures: [SCREENING],
    sections: [{ kind: 'documents' }, { kind: 'questions' }],
    documents: [
      { kind: 'photo_id', required: true },
      { kind: 'proof_of_income', required: true },
      { kind: 'other', required: false },
    ],
  },
];

/** The preset a property names, or the first one when its id names none. */
export function formPreset(id: number | null | undefined): FormPreset {
  return FORM_PRESETS.find((preset) => preset.id === id) ?? FORM_PRESETS[0];
}

/**
 * Several options of one choice question are stored in one answer, separated so; an option may
 * not hold it (FormQuestionInput), or its answer could not be told from two options.
 */
export const CHOICE_SEPARATOR = '; ';

/** Longest answer to a text question. */
export const MAX_FORM_ANSWER = 1000;

/**
 * An answer as the form's review shows it: a yes_no question's option wording (Yes, No), a
 * multiple choice's options as a list; any other answer as it was stored.
 */
export function answerWording(question: FormQuestion, answer: string): string {
  if (question.kind === 'yes_no') return answer === 'yes' ? 'Yes' : answer === 'no' ? 'No' : answer;
  if (question.kind === 'choice' && question.multiple) return answer.split(CHOICE_SEPARATOR).join(', ');
  return answer;
}
