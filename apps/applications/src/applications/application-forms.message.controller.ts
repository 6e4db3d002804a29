import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FormFieldOpener } from '@app/crypto';
import { Delivered, DeliveredMessage } from '@app/messaging';
import {
  APPLICATION_FORMS,
  CompleteFormMessage,
  ErrorCode,
  FormApplicant,
  FormCompletionInput,
  FormContactInput,
  FormDetailsInput,
  FormPresetVersionRef,
  FormSubmission,
  FormTokenMessage,
  isPositiveId,
  parseRequest,
  readFormConsent,
  RecordFormPresetMessage,
  requireClientId,
  SaveContactMessage,
  SaveDetailsMessage,
  SaveSectionMessage,
  SECTION_INPUTS,
  SEALED_IDENTITY_FIELDS,
  ServiceError,
  StartFormMessage,
  WithdrawFormMessage,
} from '@app/contracts';
import { ApplicationFormsService, FormLink, FormSectionSave } from './application-forms.service';

/** A token digest: SHA-256 in base64url. */
const DIGEST = /^[A-Za-z0-9_-]{43}$/;
/** A CSRF token's nonce: 16 random bytes in base64url. */
const SUBMISSION = /^[A-Za-z0-9_-]{22}$/;

/** What the online application form asks; each message is validated again with the form's contracts. */
@Controller()
export class ApplicationFormsMessageController {
  constructor(
    private readonly forms: ApplicationFormsService,
    private readonly sealer: FormFieldOpener,
  ) {}

  @MessagePattern(APPLICATION_FORMS.START)
  async start(@Payload() message: StartFormMessage): Promise<FormApplicant> {
    const clientId = requireClientId(message?.client_id);
    if (!isPositiveId(message.property_id)) throw ServiceError.propertyIdInvalid();
    const contact = parseRequest(FormContactInput, message.request);
    const preset = message.form_preset === undefined ? null : readPreset(message.form_preset);
    const submission = readSubmission(message);
    return this.forms.submitOnce(submission, null, () =>
      this.forms.start(clientId, message.property_id, contact, submission, preset),
    );
  }

  @MessagePattern(APPLICATION_FORMS.FIND)
  find(@Payload() message: FormTokenMessage): Promise<FormApplicant | null> {
    return this.forms.find(readLink(message));
  }

  @MessagePattern(APPLICATION_FORMS.RECORD_PRESET)
  recordPreset(@Payload() message: RecordFormPresetMessage): Promise<FormApplicant> {
    return this.forms.recordPreset(readLink(message), readPreset(message?.form_preset));
  }

  @MessagePattern(APPLICATION_FORMS.SAVE_CONTACT)
  async saveContact(@Payload() message: SaveContactMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const contact = parseRequest(FormContactInput, message.request);
    return this.forms.submitOnce(readSubmission(message), link, () => this.forms.saveContact(link, contact));
  }

  @MessagePattern(APPLICATION_FORMS.SAVE_DETAILS)
  async saveDetails(@Payload() message: SaveDetailsMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const details = parseRequest(FormDetailsInput, message.request);
    return this.forms.submitOnce(readSubmission(message), link, () => this.forms.saveDetails(link, details));
  }

  /** One section step, validated again with the class the form validated it with. */
  @MessagePattern(APPLICATION_FORMS.SAVE_SECTION)
  async saveSection(@Delivered() { data, messageId }: DeliveredMessage): Promise<FormApplicant> {
    const message = data as SaveSectionMessage;
    const link = readLink(message);
    const section = this.readSection(message, link, messageId);
    return this.forms.submitOnce(readSubmission(message), link, () => this.forms.saveSection(link, section));
  }

  @MessagePattern(APPLICATION_FORMS.COMPLETE)
  async complete(@Payload() message: CompleteFormMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const { signature } = parseRequest(FormCompletionInput, { signature: message?.signature });
    const consent = readFormConsent(message?.consent);
    return this.forms.submitOnce(readSubmission(message), link, () => this.forms.complete(link, { signature, consent }));
  }

  @MessagePattern(APPLICATION_FORMS.WITHDRAW)
  async withdraw(@Payload() message: WithdrawFormMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const submission = readSubmission(message);
    return this.forms.submitOnce(submission, link, () => this.forms.withdraw(link, submission));
  }

  private readSection(message: SaveSectionMessage, link: FormLink, messageId: string): FormSectionSave {
    const kind = message?.kind;
    if (kind === 'questions') return { kind, value: readAnswers(message.section), sealed: {} };
    if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(SECTION_INPUTS, kind) || !isObject(message.section)) {
      throw malformed();
    }
    if (kind !== 'identity')
      return { kind, value: parseRequest(SECTION_INPUTS[kind] as new () => object, message.section), sealed: {} };
    const opened = this.sealer.openFields(message.sealed_applicant, { tokenDigest: link.digest, messageId }, message.section);
    const identity = parseRequest(SECTION_INPUTS.identity, { ...message.section, ...opened });
    const sealed = Object.fromEntries(SEALED_IDENTITY_FIELDS.map((field) => [field, identity[field] ?? null]));
    const value = Object.fromEntries(
      Object.entries(identity).filter(([field]) => !(SEALED_IDENTITY_FIELDS as readonly string[]).includes(field)),
    );
    return { kind, value, sealed };
  }
}

export function readLink(message: FormTokenMessage): FormLink {
  if (typeof message?.token_digest !== 'string' || !DIGEST.test(message.token_digest)) throw malformed();
  const applicationId = message.application_id;
  if (applicationId !== undefined && !isPositiveId(applicationId)) throw malformed();
  return { digest: message.token_digest, applicationId: applicationId ?? null };
}

function readPreset(value: unknown): FormPresetVersionRef {
  if (!isObject(value) || !isPositiveId(value.id) || !isPositiveId(value.version)) throw malformed();
  return { id: value.id, version: value.version };
}

export function readSubmission(message: FormSubmission): string {
  if (typeof message?.submission !== 'string' || !SUBMISSION.test(message.submission)) throw malformed();
  return message.submission;
}

function readAnswers(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed();
  const entries = Object.entries(value);
  if (!entries.every(([key, answer]) => /^[a-z0-9_]{1,64}$/.test(key) && typeof answer === 'string')) throw malformed();
  return Object.fromEntries(entries) as Record<string, string>;
}

function malformed(): ServiceError {
  return new ServiceError(ErrorCode.VALIDATION_FAILED, 'malformed application form message');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
