import { ApiProperty } from '@nestjs/swagger';
import { RULE_PACK_IDS, RulePackId, SCREENING_REASON_CODES, ScreeningReasonCode } from '../screening';
import { EnumField, StringField } from '../validation/fields';

/**
 * GET /api/v2/properties/:id/rules: which jurisdictions' rule packs apply to a property, by its
 * address, which rules they carry and why; and each pack that does not apply, with why not.
 */

/** What a rule does (libs/screening RuleEffect), each kind documented in docs/screening.md. */
export const RULE_EFFECT_KINDS = [
  'refuse_reason_codes',
  'requires_individualized_note',
  'income_on_tenant_share',
  'criteria_before_applying',
  'screening_order',
  'missing_items_time',
  'offer_acceptance_time',
  'occupancy_baseline',
  'adverse_action_notice',
] as const;
export type RuleEffectKind = (typeof RULE_EFFECT_KINDS)[number];

/** Which part of the address decided whether a pack applies. */
export const COVERAGE_BASES = ['country', 'state', 'county', 'city', 'zip', 'none'] as const;
export type CoverageBasis = (typeof COVERAGE_BASES)[number];

/** Longest reason a client gives for turning a pack off: read by a person, kept in the audit trail. */
export const RULE_PACK_WAIVER_REASON = { min: 20, max: 2000 } as const;

export class RuleSource {
  @ApiProperty({ example: 'Fair Chance Housing Ordinance' })
  title: string;

  @ApiProperty({ example: 'Seattle Municipal Code 14.09.025 (Ordinance 125393, 2017)' })
  citation: string;

  @ApiProperty({
    format: 'uri',
    example: 'http://clerk.seattle.gov/search/ordinances/125393',
  })
  url: string;
}

export class RuleEffectRepresentation {
  @ApiProperty({ enum: RULE_EFFECT_KINDS, example: 'refuse_reason_codes' })
  kind: RuleEffectKind;

  @ApiProperty({
    enum: SCREENING_REASON_CODES,
    isArray: true,
    description: 'The reason codes a decline may not name (refuse_reason_codes), or may name only with a note.',
    example: ['criminal_conviction', 'arrest_record'],
  })
  reason_codes: ScreeningReasonCode[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['conditional_offer'],
    description: 'refuse_reason_codes: refused until a conditional offer was made; null: always.',
    example: null,
  })
  until: 'conditional_offer' | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'missing_items_time, offer_acceptance_time: the hours.',
    example: null,
  })
  hours: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'occupancy_baseline: the persons per bedroom.', example: null })
  persons_per_bedroom: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['required', 'one_of_two_lawful_ways', 'longer_only', 'fixed'],
    description:
      'screening_order: required, or one_of_two_lawful_ways; missing_items_time, offer_acceptance_time: whether a ' +
      'client may set another time (longer_only, fixed).',
    example: null,
  })
  setting: string | null;
}

export class RuleRepresentation {
  @ApiProperty({ description: 'Unique in its pack, never reused.', example: 'fair_chance_housing' })
  id: string;

  @ApiProperty({ example: 'No decline on criminal history' })
  title: string;

  @ApiProperty({ example: 'A decline may not rest on an arrest, a conviction or other criminal history.' })
  summary: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'When the rule applies to an application, if not always.',
    example: null,
  })
  applies_when: string | null;

  @ApiProperty({ type: RuleEffectRepresentation })
  effect: RuleEffectRepresentation;

  @ApiProperty({ type: RuleSource })
  source: RuleSource;
}

export class RulePackCoverage {
  @ApiProperty({ example: true })
  applies: boolean;

  @ApiProperty({
    description:
      'False when the address leaves it open: a ZIP code that may lie in the county or city (the pack then applies), or ' +
      'no state given (a state’s pack then does not).',
    example: true,
  })
  certain: boolean;

  @ApiProperty({ enum: COVERAGE_BASES, example: 'city' })
  basis: CoverageBasis;

  @ApiProperty({ example: 'The property is in the city of Seattle, Washington.' })
  explanation: string;
}

export class RulePackWaiver {
  @ApiProperty({ example: 'The unit is an accessory dwelling unit on the owner’s lot, which the ordinance excludes.' })
  reason: string;

  @ApiProperty({ example: '2026-11-22T14:03:09+00:00' })
  waived_at: string;
}

export class RulePackRepresentation {
  @ApiProperty({ enum: RULE_PACK_IDS, example: 'us-wa-seattle' })
  id: RulePackId;

  @ApiProperty({ description: 'Changes whenever a rule of the pack changes.', example: '1.0.0' })
  version: string;

  @ApiProperty({ example: 'Seattle, Washington' })
  name: string;

  @ApiProperty({ type: RulePackCoverage })
  coverage: RulePackCoverage;

  @ApiProperty({ type: RulePackWaiver, nullable: true, description: 'Set when the client turned the pack off, with its reason.' })
  waived: RulePackWaiver | null;

  @ApiProperty({ type: [RuleSource], description: 'What the pack implements.' })
  sources: RuleSource[];

  @ApiProperty({ type: [RuleRepresentation], description: 'Its rules; listed whether or not the pack applies.' })
  rules: RuleRepresentation[];
}

export class PropertyAddressRepresentation {
  @ApiProperty({ description: 'US when not set: the service serves US properties.', example: 'US' })
  country: string;

  @ApiProperty({ example: 'WA' })
  state: string;

  @ApiProperty({ description: '"" when unset: a ZIP code alone may then leave a county rule open.', example: 'King' })
  county: string;

  @ApiProperty({ example: 'Seattle' })
  city: string;

  @ApiProperty({ example: '98103' })
  zip: string;
}

export class PropertyRulesRepresentation {
  @ApiProperty({ type: 'integer', example: 3 })
  property_id: number;

  @ApiProperty({ type: PropertyAddressRepresentation, description: 'The address the packs were matched against.' })
  address: PropertyAddressRepresentation;

  @ApiProperty({ type: [RulePackRepresentation], description: 'Every pack: those that apply first, then the others.' })
  packs: RulePackRepresentation[];
}

export class PropertyRulesResponse {
  @ApiProperty({ type: PropertyRulesRepresentation })
  rules: PropertyRulesRepresentation;
}

/** Turning a pack off for a property: only with a reason, which the audit trail keeps. */
export class RulePackWaiverInput {
  @EnumField(RULE_PACK_IDS, { required: true })
  @ApiProperty({ example: 'us-wa-seattle' })
  pack_id: RulePackId;

  @StringField({ required: true, trim: true, min: RULE_PACK_WAIVER_REASON.min, max: RULE_PACK_WAIVER_REASON.max })
  @ApiProperty({
    description: `Why the pack does not apply to the property, trimmed, ${RULE_PACK_WAIVER_REASON.min} to ${RULE_PACK_WAIVER_REASON.max} characters.`,
    example: 'The unit is an accessory dwelling unit on the owner’s lot, which the ordinance excludes.',
  })
  reason: string;
}
