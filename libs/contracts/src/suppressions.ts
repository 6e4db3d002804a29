import { ApiProperty } from '@nestjs/swagger';
import { isEmail } from 'class-validator';
import { checkedReader, SensitiveReader } from './applicant-messages';
import { ErrorCode, ServiceError } from './errors';
import { ClientScoped, requireClientId } from './messages';

const TIMESTAMP = 'ISO 8601, seconds precision, numeric offset.';
/** The longest address the API takes, as everywhere else. */
const MAX_EMAIL = 254;

/** Whether an address gets the client's mail, as GET and DELETE /api/v2/suppressions/{email} answer. */
export class SuppressionRepresentation {
  @ApiProperty({ description: 'The address asked about, as given.', example: 'dana@example.com' })
  email: string;

  @ApiProperty({
    description:
      'Whether the client’s messages to this address are suppressed: its owner unsubscribed (for every client) and this ' +
      'client has not lifted it since. Notices the law requires (adverse action) go regardless.',
    example: true,
  })
  suppressed: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    format: 'date-time',
    description: `When the address last unsubscribed; null if it never did. ${TIMESTAMP}`,
    example: '2026-11-29T14:03:09+00:00',
  })
  unsubscribed_at: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    format: 'date-time',
    description: `When this client last lifted the suppression; null if it never did. ${TIMESTAMP}`,
    example: null,
  })
  lifted_at: string | null;
}

export class SuppressionResponse {
  @ApiProperty({ type: SuppressionRepresentation })
  suppression: SuppressionRepresentation;
}

/** NOTIFICATIONS.GET_SUPPRESSION and NOTIFICATIONS.LIFT_SUPPRESSION: one address, for the client's mail. */
export interface SuppressionMessage extends ClientScoped {
  email: string;
}

/** AUDIT_EVENTS.RECORD_SUPPRESSION_LIFT: the key and request that lift a suppression. */
export interface SuppressionLiftAuditMessage extends ClientScoped {
  requester: SensitiveReader;
}

/** The message for an address in a path: a clear 422 when it is no e-mail address. */
export function suppressionMessage(clientId: number, email: string): SuppressionMessage {
  if (email.length > MAX_EMAIL || !isEmail(email)) {
    throw new ServiceError(ErrorCode.VALIDATION_FAILED, 'email must be a valid e-mail address', [
      { field: 'email', message: 'must be a valid e-mail address' },
    ]);
  }
  return { client_id: clientId, email };
}

/** A SuppressionMessage as the service receives it, checked again: a queue has more writers than the gateway. */
export function readSuppressionMessage(message: SuppressionMessage): { clientId: number; email: string } {
  const clientId = requireClientId(message?.client_id);
  return { clientId, email: suppressionMessage(clientId, typeof message.email === 'string' ? message.email : '').email };
}

export function readSuppressionLiftAudit(message: SuppressionLiftAuditMessage): { clientId: number; requester: SensitiveReader } {
  return { clientId: requireClientId(message?.client_id), requester: checkedReader(message?.requester) };
}
