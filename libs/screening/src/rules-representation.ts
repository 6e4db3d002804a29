import {
  PropertyAddressRepresentation,
  PropertyRulesRepresentation,
  RuleEffectRepresentation,
  RulePackRepresentation,
} from '@app/contracts';
import { formatMessage } from './messages';
import { matchPacks, PackMatch, PackWaiver } from './packs';
import { packRules, PropertyAddress, Rule, RuleCondition, RuleEffect } from './packs/types';

/** When a rule applies to an application, if not always, as GET .../rules says it. */
export const RULE_CONDITION_MESSAGES = {
  housing_voucher: 'When an applicant has a housing voucher or another rent subsidy.',
} as const satisfies Record<RuleCondition, string>;

/**
 * GET /api/v2/properties/:id/rules: every pack matched against the property's address, those
 * that apply first (in RULE_PACKS order), each with why, its waiver, its sources and its rules.
 */
export function propertyRulesRepresentation(
  propertyId: number,
  address: PropertyAddress,
  waivers: readonly PackWaiver[] = [],
): PropertyRulesRepresentation {
  const matches = matchPacks(address, waivers);
  const ordered = [...matches.filter((match) => match.applies), ...matches.filter((match) => !match.applies)];
  return { property_id: propertyId, address: addressRepresentation(address), packs: ordered.map(packRepresentation) };
}

function addressRepresentation(address: PropertyAddress): PropertyAddressRepresentation {
  const text = (value: string | null | undefined) => (value ?? '').trim();
  return {
    country: text(address.country) || 'US',
    state: text(address.state),
    county: text(address.county),
    city: text(address.city),
    zip: text(address.zip),
  };
}

function packRepresentation(match: PackMatch): RulePackRepresentation {
  const { pack, coverage, waiver } = match;
  return {
    id: pack.id,
    version: pack.version,
    name: pack.name,
    coverage: {
      applies: coverage.applies,
      certain: coverage.certain,
      basis: coverage.basis,
      explanation: coverage.explanation.text,
    },
    waived: waiver && { reason: waiver.reason, waived_at: waiver.waived_at },
    sources: pack.sources.map((source) => ({ title: source.title, citation: source.citation, url: source.url })),
    rules: packRules(pack, null).map((rule: Rule) => ({
      id: rule.id,
      title: rule.title,
      summary: rule.summary,
      applies_when: rule.applies_when && formatMessage(RULE_CONDITION_MESSAGES[rule.applies_when]),
      effect: effectRepresentation(rule.effect),
      source: { title: rule.source.title, citation: rule.source.citation, url: rule.source.url },
    })),
  };
}

function effectRepresentation(effect: RuleEffect): RuleEffectRepresentation {
  const none = { reason_codes: [], until: null, hours: null, persons_per_bedroom: null, setting: null };
  switch (effect.kind) {
    case 'refuse_reason_codes':
      return { ...none, kind: effect.kind, reason_codes: [...effect.reason_codes], until: effect.until };
    case 'requires_individualized_note':
    case 'adverse_action_notice':
      return { ...none, kind: effect.kind, reason_codes: [...effect.reason_codes] };
    case 'screening_order':
      return { ...none, kind: effect.kind, setting: effect.setting };
    case 'missing_items_time':
    case 'offer_acceptance_time':
      return { ...none, kind: effect.kind, hours: effect.hours, setting: effect.setting };
    case 'occupancy_baseline':
      return { ...none, kind: effect.kind, persons_per_bedroom: effect.persons_per_bedroom };
    case 'income_on_tenant_share':
    case 'criteria_before_applying':
      return { ...none, kind: effect.kind };
  }
}
