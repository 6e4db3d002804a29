import { FastifyRequest } from 'fastify';
import { FormConsent, FormPreset, MAX_USER_AGENT_LENGTH } from '@app/contracts';

/**
 * What the applicant is shown and signs on the last step, as the applications service records it
 * with the completion: the preset and its version, each disclosure's exact text, and where the
 * signed form came from.
 */
export function formConsent(preset: FormPreset, request: FastifyRequest): FormConsent {
  const userAgent = request.headers['user-agent'];
  return {
    form_preset_id: preset.id,
    form_preset_version: preset.version,
    disclosures: preset.disclosures.map(({ id, title, text }) => ({ id, title, text })),
    ip_address: request.ip,
    user_agent: (typeof userAgent === 'string' ? userAgent : '').slice(0, MAX_USER_AGENT_LENGTH),
  };
}
