import { ScreeningCriteria } from '../criteria';
import { ApplicantFacts, ApplicationFacts } from '../facts';
import { sentence } from '../messages';
import { AssessmentCheck, Figures, resultOf } from './check';

/** The checks of each applicant's own: their identification number, and each document asked of them. */
export const APPLICANT_MESSAGES = {
  'check.identity.not_stated': 'Whether you have a Social Security number or an ITIN has not been stated yet.',
  'check.identity.ssn': 'You have a Social Security number.',
  'check.identity.itin_accepted': 'You have an ITIN, which is accepted in place of a Social Security number.',
  'check.identity.itin_not_accepted': 'An ITIN is not accepted in place of a Social Security number for this home.',
  'check.identity.other_evidence':
    'You have neither a Social Security number nor an ITIN, and the documents accepted instead are uploaded.',
  'check.identity.other_evidence_missing':
    'You have neither a Social Security number nor an ITIN; the documents accepted instead are not all uploaded yet.',
  'check.identity.number_required': 'A Social Security number or an ITIN is required for this home.',
  'check.identity.ssn_required': 'A Social Security number is required for this home.',
  'check.document.uploaded':
    '{kind, select, photo_id {Your photo ID has been uploaded.} proof_of_income {Your proof of income has been uploaded.} ' +
    'other {The other document asked for has been uploaded.}}',
  'check.document.missing':
    '{kind, select, photo_id {Your photo ID has not been uploaded yet.} proof_of_income {Your proof of income has not been ' +
    'uploaded yet.} other {The other document asked for has not been uploaded yet.}}',
} as const;

type ApplicantMessage = keyof typeof APPLICANT_MESSAGES;

function applicantCheck(
  criterion: 'identity' | 'document',
  applicant: ApplicantFacts,
  id: ApplicantMessage,
  code: AssessmentCheck['reason_code'],
  figures: Figures,
  values: Record<string, string> = {},
): AssessmentCheck {
  return {
    criterion,
    applicant_id: applicant.id,
    result: resultOf(code),
    reason_code: code,
    figures,
    explanation: sentence(APPLICANT_MESSAGES, id, values),
    rule: null,
  };
}

/**
 * Each applicant's identity check: a social security number meets it; an ITIN where the criteria
 * accept one; neither where they accept other evidence and its documents are uploaded.
 */
export function identityChecks(criteria: ScreeningCriteria, facts: ApplicationFacts): AssessmentCheck[] {
  const identity = criteria.identity;
  return facts.applicants.map((applicant) => {
    const figures: Figures = { id_number_type: applicant.id_number_type };
    const check = (id: ApplicantMessage, code: AssessmentCheck['reason_code']) =>
      applicantCheck('identity', applicant, id, code, figures);
    switch (applicant.id_number_type) {
      case null:
        return check('check.identity.not_stated', 'identity_number_not_stated');
      case 'ssn':
        return check('check.identity.ssn', null);
      case 'itin':
        return identity.accepts_itin
          ? check('check.identity.itin_accepted', null)
          : check('check.identity.itin_not_accepted', 'identity_number_required');
      case 'none': {
        if (!identity.accepts_other_evidence)
          return identity.accepts_itin
            ? check('check.identity.number_required', 'identity_number_required')
            : check('check.identity.ssn_required', 'identity_number_required');
        const missing = identity.other_evidence.filter((kind) => !applicant.documents.includes(kind));
        figures.missing_documents = missing;
        return missing.length === 0
          ? check('check.identity.other_evidence', null)
          : check('check.identity.other_evidence_missing', 'document_missing');
      }
    }
  });
}

/** One check per required document and applicant it is asked of: every applicant, or the primary one. */
export function documentChecks(criteria: ScreeningCriteria, facts: ApplicationFacts): AssessmentCheck[] {
  return facts.applicants.flatMap((applicant) =>
    criteria.required_documents
      .filter((document) => document.from === 'every_applicant' || applicant.type === 'primary')
      .map((document) => {
        const uploaded = applicant.documents.includes(document.kind);
        return applicantCheck(
          'document',
          applicant,
          uploaded ? 'check.document.uploaded' : 'check.document.missing',
          uploaded ? null : 'document_missing',
          { kind: document.kind },
          { kind: document.kind },
        );
      }),
  );
}
