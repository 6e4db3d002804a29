import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FormFieldOpener } from '@app/crypto';
import { Delivered, DeliveredMessage } from '@app/messaging';
import {
  APPLICATION_FORMS,
  CompleteFormMessage,
  FormApplicant,
  FormCompletionInput,
  FormContactInput,
  FormDetailsInput,
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
} from '@app/contracts';
import { ApplicationFormsService, FormSectionSave } from '../use-cases/application-forms.service';
import { FormSubmissionsService } from '../use-cases/form-submissions.service';
import { FormLink } from '../use-cases/form-subjects';
import { isObject, malformed, readAnswers, readLink, readPreset, readSubmission } from './form-messages';

/** What the online application form asks; each message is validated again with the form's contracts. */
@Controller()
export class ApplicationFormsMessageController {
  constructor(
    private readonly forms: ApplicationFormsService,
    private readonly submissions: FormSubmissionsService,
    private readonly sealer: FormFieldOpener,
  ) {}

  @MessagePattern(APPLICATION_FORMS.START)
  async start(@Payload() message: StartFormMessage): Promise<FormApplicant> {
    const clientId = requireClientId(message?.client_id);
    if (!isPositiveId(message.property_id)) throw ServiceError.propertyIdInvalid();
    const contact = parseRequest(FormContactInput, message.request);
    const preset = message.form_preset === undefined ? null : readPreset(message.form_preset);
    const submission = readSubmission(message);
    return this.submissions.once(submission, null, () =>
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
    return this.submissions.once(readSubmission(message), link, () => this.forms.saveContact(link, contact));
  }

  @MessagePattern(APPLICATION_FORMS.SAVE_DETAILS)
  async saveDetails(@Payload() message: SaveDetailsMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const details = parseRequest(FormDetailsInput, message.request);
    return this.submissions.once(readSubmission(message), link, () => this.forms.saveDetails(link, details));
  }

  /** One section step, validated again with the class the form validated it with. */
  @MessagePattern(APPLICATION_FORMS.SAVE_SECTION)
  async saveSection(@Delivered() { data, messageId }: DeliveredMessage): Promise<FormApplicant> {
    const message = data as SaveSectionMessage;
    const link = readLink(message);
    const section = this.readSection(message, link, messageId);
    return this.submissions.once(readSubmission(message), link, () => this.forms.saveSection(link, section));
  }

  @MessagePattern(APPLICATION_FORMS.COMPLETE)
  async complete(@Payload() message: CompleteFormMessage): Promise<FormApplicant> {
    const link = readLink(message);
    const { signature } = parseRequest(FormCompletionInput, { signature: message?.signature });
    const consent = readFormConsent(message?.consent);
    return this.submissions.once(readSubmission(message), link, () => this.forms.complete(link, { signature, consent }));
  }

  private readSection(given: SaveSectionMessage, link: FormLink, messageId: string): FormSectionSave {
    const owner = { tokenDigest: link.digest, messageId };
    // Sealed whole by this release's form; in clear from a form of the release before.
    const message =
      given?.sealed_section === undefined
        ? given
        : { ...given, section: this.sealer.openSection(given.sealed_section, owner) as never };
    const kind = message?.kind;
    if (kind === 'questions') return { kind, value: readAnswers(message.section), sealed: {} };
    if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(SECTION_INPUTS, kind) || !isObject(message.section)) {
      throw malformed();
    }
    if (kind !== 'identity')
      return { kind, value: parseRequest(SECTION_INPUTS[kind] as new () => object, message.section), sealed: {} };
    const opened = this.sealer.openFields(message.sealed_applicant, owner, message.section);
    const identity = parseRequest(SECTION_INPUTS.identity, { ...message.section, ...opened });
    const sealed = Object.fromEntries(SEALED_IDENTITY_FIELDS.map((field) => [field, identity[field] ?? null]));
    const value = Object.fromEntries(
      Object.entries(identity).filter(([field]) => !(SEALED_IDENTITY_FIELDS as readonly string[]).includes(field)),
    );
    return { kind, value, sealed };
  }
}
