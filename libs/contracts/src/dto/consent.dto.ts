import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode, ServiceError } from '../errors';
import { FORM_PRESET_LIMITS } from '../form-presets';

/** A disclosure as the applicant was shown it. */
export class ConsentDisclosure {
  @ApiProperty({ example: 'screening' })
  id: string;

  @ApiProperty({ example: 'Tenant screening' })
  title: string;

  @ApiProperty({ description: 'The exact text shown.', example: 'By applying you authorize the property manager to obtain...' })
  text: string;
}

/**
 * The applicant's signed consent, recorded once when the form was completed and never changed
 * afterwards: what was shown, who signed it, when, and from where.
 */
export class ConsentRecord {
  @ApiProperty({ description: 'The full name the applicant typed as its signature.', example: 'Ada Lovelace' })
  signed_name: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the form was completed: ISO 8601, seconds, numeric offset.',
    example: '2026-11-22T14:03:09+00:00',
  })
  signed_at: string;

  @ApiProperty({ description: 'The client IP address the signed form came from.', example: '203.0.113.7' })
  ip_address: string;

  @ApiProperty({ description: 'The browser’s User-Agent (at most 512 characters).', example: 'Mozilla/5.0 (X11; Linux x86_64)' })
  user_agent: string;

  @ApiProperty({ type: 'integer', example: 1 })
  form_preset_id: number;

  @ApiProperty({ type: 'integer', description: 'The version of the preset whose disclosures were shown.', example: 1 })
  form_preset_version: number;

  @ApiProperty({
    type: [ConsentDisclosure],
    maxItems: FORM_PRESET_LIMITS.disclosures,
    description: 'Each disclosure shown, with its exact text.',
  })
  disclosures: ConsentDisclosure[];
}

/** What the form sends with a completion: the consent as shown; the name and the time come with the completion. */
export interface FormConsent {
  form_preset_id: number;
  form_preset_version: number;
  disclosures: ConsentDisclosure[];
  ip_address: string;
  user_agent: string;
}

export const MAX_USER_AGENT_LENGTH = 512;

const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;
const positive = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/** A FormConsent as the service receives it; anything else is not from the form. */
export function readFormConsent(value: unknown): FormConsent {
  const consent = value as FormConsent | null | undefined;
  const valid =
    typeof consent === 'object' &&
    consent !== null &&
    positive(consent.form_preset_id) &&
    positive(consent.form_preset_version) &&
    text(consent.ip_address, 64) &&
    text(consent.user_agent, MAX_USER_AGENT_LENGTH) &&
    Array.isArray(consent.disclosures) &&
    // The disclosures of one preset, which holds no more.
    consent.disclosures.length <= FORM_PRESET_LIMITS.disclosures &&
    consent.disclosures.every((d) => text(d?.id, 100) && text(d?.title, 500) && text(d?.text, 20_000));
  if (!valid) throw new ServiceError(ErrorCode.INTERNAL, 'malformed consent');
  return {
    form_preset_id: consent.form_preset_id,
    form_preset_version: consent.form_preset_version,
    disclosures: consent.disclosures.map(({ id, title, text: shown }) => ({ id, title, text: shown })),
    ip_address: consent.ip_address,
    user_agent: consent.user_agent,
  };
}
