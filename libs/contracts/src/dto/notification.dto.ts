import { ApiProperty } from '@nestjs/swagger';
import { MAX_LISTED_MESSAGES } from '../notification-messages';
import { EmailField, NestedField, StringField } from '../validation/fields';

/** `notification_settings` inside PUT /api/v2/notification_settings: how the client's e-mails present themselves. */
export class NotificationSettingsInput {
  @StringField({ max: 100, trim: true, nullable: true })
  @ApiProperty({
    description: 'Display name of the sender of the client’s e-mails (the address is MAIL_FROM’s); null for MAIL_FROM’s own.',
    example: 'Maple Street Rentals',
  })
  sender_name?: string | null;

  @EmailField({ max: 254, nullable: true })
  @ApiProperty({ description: 'Where applicants’ replies go; null for the sender.', example: 'leasing@example.com' })
  reply_to?: string | null;
}

/** PUT /api/v2/notification_settings */
export class PutNotificationSettingsRequest {
  @NestedField(() => NotificationSettingsInput, { required: true })
  notification_settings: NotificationSettingsInput;
}

export class NotificationSettingsRepresentation {
  @ApiProperty({ type: String, nullable: true, example: 'Maple Street Rentals' })
  sender_name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'leasing@example.com' })
  reply_to: string | null;
}

export class NotificationSettingsResponse {
  @ApiProperty({ type: NotificationSettingsRepresentation })
  notification_settings: NotificationSettingsRepresentation;
}

export const MESSAGE_KINDS = ['invitation', 'confirmation', 'reminder'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_STATUSES = ['pending', 'retrying', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** One e-mail to an applicant, as the messages list shows it: never its content. */
export class MessageRepresentation {
  @ApiProperty({
    description: 'The Message-ID header it is sent with, the same on every attempt.',
    example: '<evt_3f1c.invitation.9a8b@rental-applications>',
  })
  id: string;

  @ApiProperty({ enum: MESSAGE_KINDS, example: 'invitation' })
  kind: MessageKind;

  @ApiProperty({ example: 'ada@example.com' })
  to: string;

  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description: '`retrying` while the mail server has not taken it; `failed` once given up (after 24 hours of retries).',
    example: 'sent',
  })
  status: MessageStatus;

  @ApiProperty({ type: 'integer', description: 'Attempts made to hand it to the mail server.', example: 1 })
  attempts: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-11-22T14:03:10+00:00' })
  sent_at: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T14:03:09+00:00' })
  created_at: string;
}

export class MessageListResponse {
  @ApiProperty({ type: [MessageRepresentation], maxItems: MAX_LISTED_MESSAGES, description: 'Newest first.' })
  messages: MessageRepresentation[];
}
