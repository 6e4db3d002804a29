import { FormDocumentKind, RequiredDocumentFrom, SCREENING_CRITERIA_DEFAULTS, ScreeningReportKind } from '@app/contracts';

/**
 * A screening criteria set as a client defines it: what an applicant must show. The API's
 * representation of a set (ScreeningCriteriaRepresentation) is one of these with its id, version,
 * name and text; the applications service assesses against the version a property named.
 */
export interface ScreeningCriteria {
  /** The minimum income; null sets none. */
  income: IncomeCriterion | null;
  /** What a guarantor or co-signer must show instead of the household's income; null: none is accepted instead. */
  guarantor: GuarantorCriterion | null;
  occupancy: OccupancyCriterion;
  required_documents: readonly RequiredDocument[];
  identity: IdentityCriterion;
  /** What the landlord looks at in a screening report: published, never assessed here. */
  screening_report: readonly ScreeningReportKind[];
}

export interface IncomeCriterion {
  /** Monthly income at least this many times the monthly rent (or the tenant's share of it). */
  minimum_ratio: number;
  counts: IncomeCounts;
}

export interface IncomeCounts {
  /** Wages: the employment entries' monthly_income. */
  employment: boolean;
  /** Benefits, support, pensions: the other_income entries' monthly_amount. */
  other_income: boolean;
  /** A housing voucher's share: income is compared with the rent less what the voucher pays. */
  housing_voucher: boolean;
}

export interface GuarantorCriterion {
  /** The guarantors' monthly income, counted as the household's is, at least this many times the rent judged. */
  minimum_ratio: number;
}

export interface OccupancyCriterion {
  /** Most people per bedroom; a studio counts as one bedroom. */
  persons_per_bedroom: number;
  /** Children younger than this are not counted; null counts everyone. */
  children_under_age_not_counted: number | null;
}

export interface RequiredDocument {
  kind: FormDocumentKind;
  from: RequiredDocumentFrom;
}

/** What an applicant without a social security number can apply with. */
export interface IdentityCriterion {
  accepts_itin: boolean;
  accepts_other_evidence: boolean;
  /** The documents an applicant with neither number uploads instead; empty unless accepts_other_evidence. */
  other_evidence: readonly FormDocumentKind[];
}

/** A criteria set as stored: which one and which version an assessment was made against. */
export interface VersionedScreeningCriteria extends ScreeningCriteria {
  id: number;
  version: number;
}

/**
 * Occupancy's default: two persons per bedroom, the general rule HUD holds reasonable under the
 * Fair Housing Act (the Keating Memorandum, HUD's statement of policy at 63 FR 70256, December 18,
 * 1998). The rule is rebuttable (room sizes, a child's age), which is why a set may count young
 * children out; the federal rule pack (packs/federal.ts) names the source.
 */
export const FEDERAL_OCCUPANCY_BASELINE: OccupancyCriterion = SCREENING_CRITERIA_DEFAULTS.occupancy;

/**
 * A criteria set as a request gives it (ScreeningCriteriaInput without its name): any part may be
 * left out, and inside a part any field that has a default.
 */
export interface ScreeningCriteriaGiven {
  income?: { minimum_ratio: number; counts?: Partial<IncomeCounts> } | null;
  guarantor?: GuarantorCriterion | null;
  occupancy?: Partial<OccupancyCriterion>;
  required_documents?: ReadonlyArray<{ kind: FormDocumentKind; from?: RequiredDocumentFrom }>;
  identity?: { accepts_itin?: boolean; accepts_other_evidence?: boolean; other_evidence?: readonly FormDocumentKind[] | null };
  screening_report?: readonly ScreeningReportKind[] | null;
}

/** A new criteria set: what its creator left out as SCREENING_CRITERIA_DEFAULTS says. */
export function withDefaults(given: ScreeningCriteriaGiven): ScreeningCriteria {
  const defaults = SCREENING_CRITERIA_DEFAULTS;
  const income = given.income ?? null;
  const occupancy = given.occupancy ?? {};
  const identity = given.identity ?? {};
  const acceptsOtherEvidence = identity.accepts_other_evidence ?? defaults.identity.accepts_other_evidence;
  return {
    income: income && {
      minimum_ratio: income.minimum_ratio,
      counts: {
        employment: income.counts?.employment ?? true,
        other_income: income.counts?.other_income ?? true,
        housing_voucher: income.counts?.housing_voucher ?? true,
      },
    },
    guarantor: given.guarantor ?? defaults.guarantor,
    occupancy: {
      persons_per_bedroom: occupancy.persons_per_bedroom ?? defaults.occupancy.persons_per_bedroom,
      children_under_age_not_counted:
        occupancy.children_under_age_not_counted ?? defaults.occupancy.children_under_age_not_counted,
    },
    required_documents: (given.required_documents ?? defaults.required_documents).map((document) => ({
      kind: document.kind,
      from: document.from ?? 'every_applicant',
    })),
    identity: {
      accepts_itin: identity.accepts_itin ?? defaults.identity.accepts_itin,
      accepts_other_evidence: acceptsOtherEvidence,
      other_evidence: acceptsOtherEvidence ? (identity.other_evidence ?? defaults.identity.other_evidence) : [],
    },
    screening_report: given.screening_report ?? defaults.screening_report,
  };
}

/**
 * A criteria set changed as a PATCH says (the content of its next version): each part given
 * replaces that whole part, with its own defaults; the parts left out stay as they were.
 */
export function withChanges(current: ScreeningCriteria, changes: ScreeningCriteriaGiven): ScreeningCriteria {
  const changed = withDefaults(changes);
  const part = <K extends keyof ScreeningCriteria>(key: K): ScreeningCriteria[K] =>
    changes[key] === undefined ? current[key] : changed[key];
  return {
    income: part('income'),
    guarantor: part('guarantor'),
    occupancy: part('occupancy'),
    required_documents: part('required_documents'),
    identity: part('identity'),
    screening_report: part('screening_report'),
  };
}
