import { CriteriaSentence, FormDocumentKind, RequiredDocumentFrom, ScreeningReportKind } from '@app/contracts';
import { ScreeningCriteria } from './criteria';
import { MessageValues, Sentence, sentence } from './messages';
import { applicableRules, screeningProcess } from './packs';
import { NOTICE_MESSAGES, NoticeId, noticeValues } from './packs/notices';
import { AppliedRule, RulePack } from './packs/types';

/**
 * The criteria in plain language, as the form shows them before the first step and the API
 * returns them: whole sentences chosen by the parameters (never fragments joined), some
 * introducing a list whose items are whole too. With the packs of a property's address, the
 * sentences say what the law there changes, and its notices follow.
 */
export const CRITERIA_MESSAGES = {
  'criteria.income.minimum':
    'The monthly income of everyone who will live in the home, added together, must be at least {ratio} times the monthly rent.',
  'criteria.income.counts_all':
    'Income from work and other regular income, such as benefits, child support or a pension, both count.',
  'criteria.income.counts_employment': 'Only income from work counts.',
  'criteria.income.counts_other': 'Only income other than from work counts, such as benefits, child support or a pension.',
  'criteria.income.voucher_counts':
    'If you have a housing voucher, your income is compared with your share of the rent: the rent minus what the voucher pays.',
  'criteria.income.voucher_not_counted': 'A housing voucher does not lower the rent your income is compared with.',
  'criteria.income.none': 'There is no minimum income.',
  'criteria.guarantor.accepted':
    'If your household’s income is not enough, a guarantor or co-signer can qualify you instead: their monthly income must be ' +
    'at least {ratio} times the rent your income is compared with.',
  'criteria.guarantor.not_accepted': 'A guarantor or co-signer cannot qualify you in place of your own income.',
  'criteria.occupancy.limit':
    '{persons, plural, one {At most one person may live in the home for each bedroom.} other {At most # people may live in ' +
    'the home for each bedroom.}} A studio counts as one bedroom.',
  'criteria.occupancy.children_not_counted':
    '{age, plural, one {Children under # year old are not counted.} other {Children under # years old are not counted.}}',
  'criteria.documents.every_applicant': 'Each applicant and guarantor uploads:',
  'criteria.documents.primary_applicant': 'The primary applicant uploads:',
  'criteria.documents.none': 'No documents need to be uploaded.',
  'criteria.identity.itin_or_evidence':
    'If you do not have a Social Security number, you can apply with an ITIN (Individual Taxpayer Identification Number) ' +
    'instead. If you have neither, you can apply by uploading:',
  'criteria.identity.itin_only':
    'If you do not have a Social Security number, you can apply with an ITIN (Individual Taxpayer Identification Number) ' +
    'instead. You cannot apply with neither.',
  'criteria.identity.evidence_only':
    'An ITIN is not accepted in place of a Social Security number. If you do not have a Social Security number, you can ' +
    'apply by uploading:',
  'criteria.identity.ssn_required': 'A Social Security number is required to apply.',
  'criteria.report.none': 'No screening report (credit, rental, eviction or criminal history) is ordered.',
  'criteria.report.considered': 'A screening report is ordered, and these parts of it are considered:',
  'criteria.report.rights':
    'If a decision against you rests on the report, you will be told which agency made it, and that you can get a free ' +
    'copy of it and dispute what it says.',
  'criteria.notices': 'The law where this home is also says:',
  'document.photo_id': 'A photo ID.',
  'document.proof_of_income': 'Proof of income, such as pay slips or a benefit letter.',
  'document.other': 'Another document, as the landlord asks.',
  'report.credit_history': 'Your credit history.',
  'report.rental_history': 'Your rental history.',
  'report.eviction_history': 'Eviction records.',
  'report.criminal_history': 'Criminal history.',
  'report.criminal_history_after_offer': 'Criminal history, only after a conditional offer.',
  'report.registry_only': 'Sex offender registry information only.',
} as const;

type CriteriaMessage = keyof typeof CRITERIA_MESSAGES;

/** A sentence of the criteria, and the list it introduces (empty when it introduces none). */
export interface CriteriaBlock extends Sentence {
  items: Sentence[];
}

export function describeCriteria(criteria: ScreeningCriteria, packs: readonly RulePack[] = []): CriteriaBlock[] {
  const rules = applicableRules(packs, null);
  return [
    ...incomeBlocks(criteria, rules),
    ...occupancyBlocks(criteria),
    ...documentBlocks(criteria),
    identityBlock(criteria),
    ...reportBlocks(criteria, rules),
    ...noticeBlocks(packs, rules),
  ];
}

/** The API's sentences: each text with its id, the items likewise. */
export function criteriaSentences(blocks: readonly CriteriaBlock[]): CriteriaSentence[] {
  return blocks.map((block) => ({
    id: block.id,
    text: block.text,
    items: block.items.map((item) => ({ id: item.id, text: item.text })),
  }));
}

function block(id: CriteriaMessage, values: MessageValues = {}, items: Sentence[] = []): CriteriaBlock {
  return { ...sentence(CRITERIA_MESSAGES, id, values), items };
}

function incomeBlocks(criteria: ScreeningCriteria, rules: readonly AppliedRule[]): CriteriaBlock[] {
  const income = criteria.income;
  if (income === null) return [block('criteria.income.none')];
  const { employment, other_income: other } = income.counts;
  const counts =
    employment && other
      ? 'criteria.income.counts_all'
      : employment
        ? 'criteria.income.counts_employment'
        : 'criteria.income.counts_other';
  const voucherCounts = income.counts.housing_voucher || rules.some((rule) => rule.effect.kind === 'income_on_tenant_share');
  return [
    block('criteria.income.minimum', { ratio: income.minimum_ratio }),
    block(counts),
    block(voucherCounts ? 'criteria.income.voucher_counts' : 'criteria.income.voucher_not_counted'),
    criteria.guarantor
      ? block('criteria.guarantor.accepted', { ratio: criteria.guarantor.minimum_ratio })
      : block('criteria.guarantor.not_accepted'),
  ];
}

function occupancyBlocks(criteria: ScreeningCriteria): CriteriaBlock[] {
  const { persons_per_bedroom: persons, children_under_age_not_counted: age } = criteria.occupancy;
  return [
    block('criteria.occupancy.limit', { persons }),
    ...(age === null ? [] : [block('criteria.occupancy.children_not_counted', { age })]),
  ];
}

const DOCUMENT_ITEM: Record<FormDocumentKind, CriteriaMessage> = {
  photo_id: 'document.photo_id',
  proof_of_income: 'document.proof_of_income',
  other: 'document.other',
};

function documentItems(kinds: readonly FormDocumentKind[]): Sentence[] {
  return kinds.map((kind) => sentence(CRITERIA_MESSAGES, DOCUMENT_ITEM[kind]));
}

function documentBlocks(criteria: ScreeningCriteria): CriteriaBlock[] {
  const from = (who: RequiredDocumentFrom) => criteria.required_documents.filter((document) => document.from === who);
  const blocks = (['every_applicant', 'primary_applicant'] as const)
    .filter((who) => from(who).length > 0)
    .map((who) => block(`criteria.documents.${who}`, {}, documentItems(from(who).map((document) => document.kind))));
  return blocks.length > 0 ? blocks : [block('criteria.documents.none')];
}

function identityBlock(criteria: ScreeningCriteria): CriteriaBlock {
  const { accepts_itin: itin, accepts_other_evidence: evidence, other_evidence: documents } = criteria.identity;
  if (itin && evidence) return block('criteria.identity.itin_or_evidence', {}, documentItems(documents));
  if (itin) return block('criteria.identity.itin_only');
  if (evidence) return block('criteria.identity.evidence_only', {}, documentItems(documents));
  return block('criteria.identity.ssn_required');
}

/** How a published part of the report reads where these rules apply: criminal history as the law there allows it. */
function reportItem(kind: ScreeningReportKind, rules: readonly AppliedRule[]): CriteriaMessage | null {
  if (kind !== 'criminal_history') return `report.${kind}`;
  const refusal = (code: 'criminal_conviction' | 'sex_offender_registry') =>
    rules
      .map((rule) => rule.effect)
      .filter((effect) => effect.kind === 'refuse_reason_codes' && effect.reason_codes.includes(code))
      .map((effect) => (effect.kind === 'refuse_reason_codes' ? effect.until : null));
  const conviction = refusal('criminal_conviction');
  if (conviction.includes(null)) return refusal('sex_offender_registry').includes(null) ? null : 'report.registry_only';
  return conviction.length > 0 ? 'report.criminal_history_after_offer' : 'report.criminal_history';
}

function reportBlocks(criteria: ScreeningCriteria, rules: readonly AppliedRule[]): CriteriaBlock[] {
  const items = criteria.screening_report
    .map((kind) => reportItem(kind, rules))
    .filter((id): id is CriteriaMessage => id !== null)
    .map((id) => sentence(CRITERIA_MESSAGES, id));
  if (items.length === 0) return [block('criteria.report.none')];
  return [block('criteria.report.considered', {}, items), block('criteria.report.rights')];
}

/** Each notice of the applicable rules once, in pack order, with the figures its rules carry. */
function noticeBlocks(packs: readonly RulePack[], rules: readonly AppliedRule[]): CriteriaBlock[] {
  const ids = [...new Set(rules.map((rule) => rule.notice).filter((id): id is NoticeId => id !== null))];
  if (ids.length === 0) return [];
  const process = screeningProcess(packs);
  const times = { missing_hours: process.missing_items?.hours ?? 0, accept_hours: process.offer_acceptance?.hours ?? 0 };
  return [
    block(
      'criteria.notices',
      {},
      ids.map((id) => sentence(NOTICE_MESSAGES, id, noticeValues(id, times))),
    ),
  ];
}
