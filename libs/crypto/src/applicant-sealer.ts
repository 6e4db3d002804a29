import { Injectable, Logger } from '@nestjs/common';
import {
  AddApplicantMessage,
  AddApplicantRequest,
  CreateApplicationMessage,
  CreateApplicationRequest,
  ErrorCode,
  SealedApplicantFields,
  SealedValue,
  ServiceError,
} from '@app/contracts';
import { FieldCipher, isOwnerBound, SealedValueError } from './field-cipher';

/** The applicant fields that exist only encrypted outside a process's memory. */
export const SEALED_APPLICANT_FIELDS = ['id_number', 'dob', 'drivers_license_number'] as const;
export type SealedApplicantField = (typeof SEALED_APPLICANT_FIELDS)[number];

type Fields = Record<string, unknown>;

/** Whom a stored applicant value belongs to: bound into it, so that it opens for them only. */
export interface StoredOwner {
  clientId: number;
  applicantId: number;
}

/** Whom an applicant value in a message belongs to: the client and the message carrying it. */
export interface MessageOwner {
  clientId: number;
  /** The message's correlation id. */
  messageId: string;
}

/**
 * Moves an applicant's id_number and dob in and out of the `sealed_applicant` envelope of a
 * create-application message (the form's messages have an envelope of their own,
 * FormFieldSealer). The gateway seals them after validating the request; the
 * applications service opens them so that the same contract validates what it will store, and
 * seals them again for the database. Each value is bound to its owner: in a message to the
 * client and the message id, so that an envelope copied into another message, or another
 * client's, does not open; in the database to the client and the applicant, so that a value
 * copied into another applicant's record does not open there.
 */
@Injectable()
export class ApplicantSealer {
  private readonly logger = new Logger('ApplicantSealer');

  constructor(private readonly cipher: FieldCipher) {}

  /** One applicant value sealed for storage, bound to its field and its owner. */
  sealField(field: SealedApplicantField, value: string, owner: StoredOwner): SealedValue {
    return this.cipher.seal(value, `applicant.${field}`, storedOwner(owner));
  }

  /**
   * A stored applicant value in clear; throws SealedValueError unless it was sealed for this
   * field and owner. Values stored before owners were bound in open for their field alone.
   */
  openField(field: SealedApplicantField, sealed: unknown, owner: StoredOwner): string {
    return this.cipher.open(sealed, `applicant.${field}`, storedOwner(owner));
  }

  /** The message body for a validated request: the sensitive fields taken out and sealed. */
  seal(request: CreateApplicationRequest, owner: MessageOwner): Pick<CreateApplicationMessage, 'request' | 'sealed_applicant'> {
    const { applicant, sealed } = this.sealApplicant(
      request.application.applicant,
      messageOwner(owner.clientId, owner.messageId),
    );
    return { request: { application: { ...request.application, applicant } }, sealed_applicant: sealed };
  }

  /** The same for a validated co-applicant request (`{applicant}`). */
  sealCoApplicant(request: AddApplicantRequest, owner: MessageOwner): Pick<AddApplicantMessage, 'request' | 'sealed_applicant'> {
    const { applicant, sealed } = this.sealApplicant(request.applicant, messageOwner(owner.clientId, owner.messageId));
    return { request: { applicant }, sealed_applicant: sealed };
  }

  /**
   * The request of a create-application message with the sealed fields put back in clear, for
   * the contract to validate. A message whose envelope cannot be opened (sealed for another
   * client or message, or for none), or that carries one of the fields in clear, did not come
   * from a gateway holding the keys: it is refused.
   */
  open(message: unknown, messageId: string): unknown {
    const { request, sealed_applicant: sealed, client_id: clientId } = (isObject(message) ? message : {}) as Fields;
    const application = isObject(request) ? request.application : undefined;
    const applicant = isObject(application) ? application.applicant : undefined;
    if (!isObject(request) || !isObject(application) || !isObject(applicant)) return request;
    const opened = this.openApplicant(applicant, sealed, messageOwner(clientId, messageId));
    return { ...request, application: { ...application, applicant: opened } };
  }

  /** The request of an add-co-applicant message, opened and refused as `open` does. */
  openCoApplicant(message: unknown, messageId: string): unknown {
    const { request, sealed_applicant: sealed, client_id: clientId } = (isObject(message) ? message : {}) as Fields;
    const applicant = isObject(request) ? request.applicant : undefined;
    if (!isObject(request) || !isObject(applicant)) return request;
    return { ...request, applicant: this.openApplicant(applicant, sealed, messageOwner(clientId, messageId)) };
  }

  /**
   * Just the sealed fields, for an answer that carries them (an applicant read with its
   * sensitive data), bound to the client and the message it answers, as a request's are.
   */
  sealForMessage(values: Partial<Record<SealedApplicantField, string | null>>, owner: MessageOwner): SealedApplicantFields {
    return this.sealApplicant(values, messageOwner(owner.clientId, owner.messageId)).sealed;
  }

  /** Those fields in clear, refused as `open` refuses them. */
  openFromMessage(sealed: unknown, owner: MessageOwner): Partial<Record<SealedApplicantField, unknown>> {
    return this.openApplicant({}, sealed, messageOwner(owner.clientId, owner.messageId));
  }

  private sealApplicant(input: object, owner: string): { applicant: Fields; sealed: SealedApplicantFields } {
    const applicant: Fields = { ...input };
    const sealed: SealedApplicantFields = {};
    for (const field of SEALED_APPLICANT_FIELDS) {
      const value = applicant[field];
      if (typeof value === 'string') {
        sealed[field] = this.cipher.seal(value, `applicant.${field}`, owner);
        delete applicant[field];
      }
    }
    return { applicant, sealed };
  }

  private openApplicant(applicant: Fields, sealed: unknown, owner: string): Fields {
    const opened: Fields = { ...applicant };
    for (const field of SEALED_APPLICANT_FIELDS) {
      if (typeof applicant[field] === 'string') throw this.refuse(`${field} came in clear`);
      const value = isObject(sealed) ? sealed[field] : undefined;
      if (value === undefined) continue;
      // A message lives seconds: one sealed for no owner comes from no current gateway.
      if (!isOwnerBound(value)) throw this.refuse(`sealed ${field} is bound to no client and message`);
      try {
        opened[field] = this.cipher.open(value, `applicant.${field}`, owner);
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error;
        throw this.refuse(`sealed ${field} cannot be opened: ${error.message}`);
      }
    }
    return opened;
  }

  /** The reason goes to the operators' log (it holds no value); the caller learns only the refusal. */
  private refuse(reason: string): ServiceError {
    this.logger.warn(`applicant message refused: ${reason}`);
    return new ServiceError(ErrorCode.INTERNAL, 'message refused: applicant fields must travel sealed with a known key');
  }
}

function storedOwner({ clientId, applicantId }: StoredOwner): string {
  return `client:${clientId} applicant:${applicantId}`;
}

function messageOwner(clientId: unknown, messageId: string): string {
  return `client:${String(clientId)} message:${messageId}`;
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
