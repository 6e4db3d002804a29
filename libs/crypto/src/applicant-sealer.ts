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
import { FieldCipher, SealedValueError } from './field-cipher';

/** The applicant fields that exist only encrypted outside a process's memory. */
export const SEALED_APPLICANT_FIELDS = ['id_number', 'dob'] as const;
export type SealedApplicantField = (typeof SEALED_APPLICANT_FIELDS)[number];

type Fields = Record<string, unknown>;

/**
 * Moves an applicant's id_number and dob in and out of the `sealed_applicant` envelope of a
 * create-application message. The gateway seals them after validating the request; the
 * applications service opens them so that the same contract validates what it will store, and
 * seals them again for the database.
 */
@Injectable()
export class ApplicantSealer {
  private readonly logger = new Logger('ApplicantSealer');

  constructor(private readonly cipher: FieldCipher) {}

  /** One applicant value sealed for storage or transport; the field name is bound to it. */
  sealField(field: SealedApplicantField, value: string): SealedValue {
    return this.cipher.seal(value, `applicant.${field}`);
  }

  /** The message body for a validated request: the sensitive fields taken out and sealed. */
  seal(request: CreateApplicationRequest): Pick<CreateApplicationMessage, 'request' | 'sealed_applicant'> {
    const { applicant, sealed } = this.sealApplicant(request.application.applicant);
    return { request: { application: { ...request.application, applicant } }, sealed_applicant: sealed };
  }

  /** The same for a validated co-applicant request (`{applicant}`). */
  sealCoApplicant(request: AddApplicantRequest): Pick<AddApplicantMessage, 'request' | 'sealed_applicant'> {
    const { applicant, sealed } = this.sealApplicant(request.applicant);
    return { request: { applicant }, sealed_applicant: sealed };
  }

  /**
   * The request of a create-application message with the sealed fields put back in clear, for
   * the contract to validate. A message whose envelope cannot be opened, or that carries one of
   * the fields in clear, did not come from a gateway holding the keys: it is refused.
   */
  open(message: unknown): unknown {
    const { request, sealed_applicant: sealed } = (isObject(message) ? message : {}) as Fields;
    const application = isObject(request) ? request.application : undefined;
    const applicant = isObject(application) ? application.applicant : undefined;
    if (!isObject(request) || !isObject(application) || !isObject(applicant)) return request;
    return { ...request, application: { ...application, applicant: this.openApplicant(applicant, sealed) } };
  }

  /** The request of an add-co-applicant message, opened and refused as `open` does. */
  openCoApplicant(message: unknown): unknown {
    const { request, sealed_applicant: sealed } = (isObject(message) ? message : {}) as Fields;
    const applicant = isObject(request) ? request.applicant : undefined;
    if (!isObject(request) || !isObject(applicant)) return request;
    return { ...request, applicant: this.openApplicant(applicant, sealed) };
  }

  /** Just the sealed fields, for a request that carries them alone (the form's last step). */
  sealFields(values: Partial<Record<SealedApplicantField, string>>): SealedApplicantFields {
    return this.sealApplicant(values).sealed;
  }

  /** The sealed fields in clear, refused as `open` refuses them. */
  openFields(sealed: unknown): Partial<Record<SealedApplicantField, unknown>> {
    return this.openApplicant({}, sealed);
  }

  private sealApplicant(input: object): { applicant: Fields; sealed: SealedApplicantFields } {
    const applicant: Fields = { ...input };
    const sealed: SealedApplicantFields = {};
    for (const field of SEALED_APPLICANT_FIELDS) {
      const value = applicant[field];
      if (typeof value === 'string') {
        sealed[field] = this.sealField(field, value);
        delete applicant[field];
      }
    }
    return { applicant, sealed };
  }

  private openApplicant(applicant: Fields, sealed: unknown): Fields {
    const opened: Fields = { ...applicant };
    for (const field of SEALED_APPLICANT_FIELDS) {
      if (typeof applicant[field] === 'string') throw this.refuse(`${field} came in clear`);
      const value = isObject(sealed) ? sealed[field] : undefined;
      if (value === undefined) continue;
      try {
        opened[field] = this.cipher.open(value, `applicant.${field}`);
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

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
