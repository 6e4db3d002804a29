import { ApiProperty } from '@nestjs/swagger';
import { BooleanField, EmailField, NestedField } from '../validation/fields';

export class InvitationInput {
  @EmailField({ required: true, max: 254 })
  @ApiProperty({ description: 'Whom the invitation is for; the form starts with it filled in.', example: 'ada@example.com' })
  email: string;

  @BooleanField()
  @ApiProperty({
    description: 'E-mail the invitation to `email` (the notifications service sends it).',
    default: false,
    example: true,
  })
  send_email?: boolean;
}

/** POST /api/v2/properties/:pid/invitations */
export class CreateInvitationRequest {
  @NestedField(() => InvitationInput, { required: true })
  invitation: InvitationInput;
}

export class InvitationRepresentation {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  id: number;

  @ApiProperty({ type: 'integer', example: 1 })
  property_id: number;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({
    format: 'uri',
    description:
      'The property’s application_url with the invitation’s token: opens the form of an invitation_only property. ' +
      'Shown this once (only a digest of the token is stored); it applies once, until expires_at.',
    example: 'http://localhost:3003/properties/1/apply?invitation=3q2-7wE9kVbYt1m0sQx4c8pLrA5uZf6nHjDg0oKiWyM',
  })
  url: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-29T14:03:09+00:00' })
  expires_at: string;
}

export class InvitationResponse {
  @ApiProperty()
  invitation: InvitationRepresentation;
}
