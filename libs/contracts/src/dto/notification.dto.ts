import { ApiExtraModels, ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { MAX_LISTED_MESSAGES } from '../notification-messages';
import { EmailField, NestedField, StringField } from '../validation/fields';

/**
 * The consumer reporting agency whose report a client's decisions may rest on: a decline on the
 * screening report gives the applicant its name, address and phone (the adverse action notice).
 */
export class ScreeningAgencyInput {
  @StringField({ required: true, min: 1, max: 200, trim: true })
  @ApiProperty({
    description: 'The agency’s name, as the applicant would ask for it.',
    example: 'TransUnion Rental Screening Solutions',
  })
  name: string;

  @StringField({ required: true, min: 1, max: 300, trim: true })
  @ApiProperty({ description: 'Its postal address, on one line.', example: 'PO Box 800, Woodlyn, PA 19094' })
  address: string;

  @StringField({ required: true, min: 1, max: 40, trim: true })
  @ApiProperty({ description: 'Its phone number, toll-free where it has one.', example: '1-800-230-9376' })
  phone: string;
}

const AGENCY_EXAMPLE = {
  name: 'TransUnion Rental Screening Solutions',
  address: 'PO Box 800, Woodlyn, PA 19094',
  phone: '1-800-230-9376',
};

/**
 * The screening agency, or null for none. OpenAPI 3.0's `nullable` does not reach into the `allOf`
 * that a nullable `type` would make, so null is spelled out beside it.
 */
function nullableAgency(description: string): PropertyDecorator {
  return ApiProperty({
    anyOf: [{ $ref: getSchemaPath(ScreeningAgencyInput) }, { type: 'object', nullable: true, enum: [null] }],
    description,
    example: AGENCY_EXAMPLE,
  } as ApiPropertyOptions);
}

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

  @NestedField(() => ScreeningAgencyInput, { nullable: true })
  @ApiProperty({
    type: ScreeningAgencyInput,
    nullable: true,
    description:
      'The screening agency named in the adverse action notice that a decline on the screening report sends; ' +
      'such a decline is refused (422) while it is unset. null unsets it.',
    example: AGENCY_EXAMPLE,
  })
  screening_agency?: ScreeningAgencyInput | null;
}

/** PUT /api/v2/notification_settings */
export class PutNotificationSettingsRequest {
  @NestedField(() => NotificationSettingsInput, { required: true })
  notification_settings: NotificationSettingsInput;
}

@ApiExtraModels(ScreeningAgencyInput)
export class NotificationSettingsRepresentation {
  @ApiProperty({ type: String, nullable: true, example: 'Maple Street Rentals' })
  sender_name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'leasing@example.com' })
  reply_to: string | null;

  @nullableAgency('The screening agency of the adverse action notice; null when unset.')
  /** Always given by this release; optional in the type, as a service of the previous release answers without it. */
  screening_agency?: ScreeningAgency | null;
}

/** The screening agency as stored and shown. */
export interface ScreeningAgency {
  name: string;
  address: string;
  phone: string;
}

export class NotificationSettingsResponse {
  @ApiProperty({ type: NotificationSettingsRepresentation })
  notification_settings: NotificationSettingsRepresentation;
}

export const MESSAGE_KINDS = ['invitation', 'confirmation', 'reminder', 'decision', 'address_confirmation'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_STATUSES = ['pending', 'retrying', 'sent', 'failed', 'held', 'suppressed'] as const;
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

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The address it was sent to; null once the applicant’s personal data was erased.',
    example: 'ada@example.com',
  })
  to: string | null;

  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description:
      '`retrying` while the mail server has not taken it; `failed` once given up (after 24 hours of retries); `held` ' +
      'while its address, typed on the form, is not confirmed; `suppressed` when it is never to be sent (its address ' +
      'unsubscribed, the form named more people than the caps on invitations allow, or the applicant’s personal data ' +
      'was erased before it was sent).',
    example: 'sent',
  })
  status: MessageStatus;

  @ApiProperty({ type: 'integer', description: 'Attempts made to hand it to the mail server.', example: 1 })
  attempts: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-11-22T14:03:10+00:00' })
  sent_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    // null listed too: a nullable enum allows only what it lists (OpenAPI 3.0.3).
    enum: ['address_unconfirmed', null],
    description:
      'Why it is (or was) `held`: `address_unconfirmed`, its address was typed on the public form and its owner has ' +
      'not yet followed the `address_confirmation` e-mail. Kept once it is released or its hold ends; null for one never held.',
    example: 'address_unconfirmed',
  })
  // Optional: a release before this one does not send it, and its answer is read as if it said null.
  held_reason?: 'address_unconfirmed' | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description:
      'When a hold ends: a message still `held` then (its address never confirmed) is recorded `failed`. Null for one never ' +
      'held, or held before holds ended.',
    example: '2026-11-29T14:03:09+00:00',
  })
  held_until?: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T14:03:09+00:00' })
  created_at: string;
}

export class MessageListResponse {
  @ApiProperty({ type: [MessageRepresentation], maxItems: MAX_LISTED_MESSAGES, description: 'Newest first.' })
  messages: MessageRepresentation[];
}

/** The messages GET /api/v2/message_previews shows, in its order. */
export const MESSAGE_PREVIEW_CASES = [
  'invitation',
  'invitation_from_form',
  'property_invitation',
  'reminder',
  'confirmation',
  'decision_approved',
  'decision_conditionally_approved',
  'decision_declined',
  'decision_declined_screening_report',
  'decision_withdrawn',
  'address_confirmation',
] as const;
export type MessagePreviewCase = (typeof MESSAGE_PREVIEW_CASES)[number];

/** One message as the client's applicants would receive it, filled with sample names and placeholder links. */
export class MessagePreview {
  @ApiProperty({
    enum: MESSAGE_PREVIEW_CASES,
    description:
      'Which message: invitation (to join an application added through the API), invitation_from_form (to one the ' +
      'primary applicant named on the form), property_invitation (to a property’s form), reminder, confirmation, ' +
      'one per decision, decision_declined_screening_report (a decline with the adverse action notice), and ' +
      'address_confirmation (the one message an address typed on the form gets before it is confirmed).',
    example: 'decision_declined_screening_report',
  })
  case: MessagePreviewCase;

  @ApiProperty({ enum: MESSAGE_KINDS, example: 'decision' })
  kind: MessageKind;

  @ApiProperty({ example: 'Your application for Maple Street Apartments, Unit 4B' })
  subject: string;

  @ApiProperty({
    description: 'The plain text part.',
    example: 'Hello Alex,\n\nWe are sorry: your application for Maple Street Apartments, Unit 4B has not been approved.\n',
  })
  text: string;

  @ApiProperty({
    description: 'The HTML part, a whole document.',
    example:
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your application</title></head><body>…</body></html>',
  })
  html: string;
}

export class MessagePreviewListResponse {
  @ApiProperty({ type: [MessagePreview], maxItems: 20, description: 'One per message, in the order of `case` above.' })
  previews: MessagePreview[];
}
