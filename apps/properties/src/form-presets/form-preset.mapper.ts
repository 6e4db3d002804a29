import {
  FORM_PRESET_DEFAULTS,
  FormDocumentRequestInput,
  FormPreset,
  FormPresetChanges,
  FormQuestion,
  FormQuestionInput,
  FormSection,
} from '@app/contracts';
import { FormPresetContent, FormPresetVersion } from './form-presets.repository';

/** The public representation of a stored version: the fields of FormPreset, in its order. */
export function toFormPresetRepresentation(version: FormPresetVersion & { content: FormPresetContent }): FormPreset {
  const { name, questions, disclosures, sections, documents } = version.content;
  return { id: version.preset_id, version: version.version, default: false, name, questions, disclosures, sections, documents };
}

/**
 * What a preset holds once `changes` are made to `base` (a create's changes are made to nothing):
 * each list given replaces the one before, stored in one shape whatever the caller left out, so
 * that equal presets compare equal and every question reads the same.
 */
export function changedContent(base: FormPresetContent | null, changes: FormPresetChanges): FormPresetContent {
  return {
    name: changes.name ?? base?.name ?? '',
    questions: changes.questions ? changes.questions.map(storedQuestion) : (base?.questions ?? []),
    disclosures: changes.disclosures
      ? changes.disclosures.map(({ id, title, text }) => ({ id, title, text }))
      : (base?.disclosures ?? []),
    sections: changes.sections
      ? changes.sections.map(({ kind, years, max_gap_days }): FormSection => ({
          kind,
          ...(years === undefined ? {} : { years }),
          ...(max_gap_days === undefined ? {} : { max_gap_days }),
        }))
      : (base?.sections ?? FORM_PRESET_DEFAULTS.sections.map((section) => ({ ...section }))),
    documents: changes.documents ? changes.documents.map(storedDocument) : (base?.documents ?? []),
  };
}

function storedQuestion(question: FormQuestionInput): FormQuestion {
  const stored: FormQuestion = {
    id: question.id,
    label: question.label,
    kind: question.kind,
    required: question.required ?? false,
  };
  if (question.help !== undefined) stored.help = question.help;
  if (question.kind === 'choice') {
    stored.options = question.options ?? [];
    stored.multiple = question.multiple ?? false;
  }
  if (question.when) stored.when = { question: question.when.question, answer: question.when.answer };
  return stored;
}

function storedDocument({ kind, required }: FormDocumentRequestInput) {
  return { kind, required: required ?? false };
}
