import {
  DocumentListResponse,
  DocumentRepresentation,
  DOCUMENTS,
  FieldProblem,
  FormDocumentKind,
  FormPreset,
  FormTokenMessage,
} from '@app/contracts';
import { FormBackends } from '../backends/form-backends';

/** How the form names each kind of document to the applicant. */
export const documentKindLabels: Record<FormDocumentKind, string> = {
  photo_id: 'Photo ID (driver’s license, state ID or passport)',
  proof_of_income: 'Proof of income (your last pay stub showing year-to-date pay)',
  other: 'Another document',
};

/** The kinds the preset requires that none of `documents` is. */
export function missingDocuments(preset: FormPreset, documents: Pick<DocumentRepresentation, 'kind'>[]): FormDocumentKind[] {
  return preset.documents
    .filter((asked) => asked.required && !documents.some((document) => document.kind === asked.kind))
    .map((asked) => asked.kind);
}

/**
 * What stops the form from being completed for want of documents: the problem naming those the
 * preset requires that the applicant (its `link`) has not uploaded, or none.
 */
export async function requiredDocumentProblems(
  backends: FormBackends,
  preset: FormPreset,
  link: FormTokenMessage,
): Promise<FieldProblem[]> {
  if (!preset.documents.some((asked) => asked.required)) return [];
  const { documents } = await backends.applications<DocumentListResponse>(DOCUMENTS.FORM_LIST, link);
  const missing = missingDocuments(preset, documents);
  if (missing.length === 0) return [];
  const names = missing.map((kind) => DOCUMENT_KIND_NAMES[kind]).join(' and ');
  return [{ field: 'documents', message: `upload your ${names} on the documents page first` }];
}

/** Short names of the kinds, for a sentence. */
const DOCUMENT_KIND_NAMES: Record<FormDocumentKind, string> = {
  photo_id: 'photo ID',
  proof_of_income: 'proof of income',
  other: 'other document',
};
