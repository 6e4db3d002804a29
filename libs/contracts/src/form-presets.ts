import { ApiProperty } from '@nestjs/swagger';

export const FORM_QUESTION_KINDS = ['text', 'yes_no'] as const;
export type FormQuestionKind = (typeof FORM_QUESTION_KINDS)[number];

export class FormQuestion {
  @ApiProperty({ description: 'Names the answer in the applicant’s form_answers.', example: 'current_landlord' })
  id: string;

  @ApiProperty({ example: 'Name and phone number of your current landlord' })
  label: string;

  @ApiProperty({ enum: FORM_QUESTION_KINDS, description: 'A line of text, or yes or no.', example: 'text' })
  kind: FormQuestionKind;

  @ApiProperty({ example: true })
  required: boolean;
}

export class FormDisclosure {
  @ApiProperty({ example: 'screening' })
  id: string;

  @ApiProperty({ example: 'Tenant screening' })
  title: string;

  @ApiProperty({ example: 'Your application may be screened with a credit and background check.' })
  text: string;
}

export class FormPreset {
  @ApiProperty({ type: 'integer', example: 1 })
  id: number;

  @ApiProperty({ example: 'Standard residential' })
  name: string;

  @ApiProperty({ type: [FormQuestion] })
  questions: FormQuestion[];

  @ApiProperty({ type: [FormDisclosure], description: 'Shown on the last step; the applicant consents to them.' })
  disclosures: FormDisclosure[];
}

export class FormPresetListResponse {
  @ApiProperty({ type: [FormPreset] })
  form_presets: FormPreset[];
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
    name: 'Standard residential',
    questions: [
      { id: 'current_address', label: 'Current address', kind: 'text', required: true },
      { id: 'employer', label: 'Current employer', kind: 'text', required: false },
      { id: 'evicted', label: 'Have you ever been evicted?', kind: 'yes_no', required: true },
    ],
    disclosures: [SCREENING],
  },
  {
    id: 2,
    name: 'Pets and vehicles',
    questions: [
      { id: 'current_address', label: 'Current address', kind: 'text', required: true },
      { id: 'pets', label: 'Do you have pets?', kind: 'yes_no', required: true },
      { id: 'pet_details', label: 'If so, which (kind, breed, weight)?', kind: 'text', required: false },
      { id: 'vehicles', label: 'Vehicles to park (make, model, plate)', kind: 'text', required: false },
    ],
    disclosures: [
      SCREENING,
      {
        id: 'pet_policy',
        title: 'Pet policy',
        text: 'Pets are allowed with the landlord’s written consent; a pet deposit may apply.',
      },
    ],
  },
];

/** The preset a property names, or the first one when its id names none. */
export function formPreset(id: number | null | undefined): FormPreset {
  return FORM_PRESETS.find((preset) => preset.id === id) ?? FORM_PRESETS[0];
}

/** Longest answer to a text question. */
export const MAX_FORM_ANSWER = 1000;
