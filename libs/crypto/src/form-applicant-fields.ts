import { Injectable, Logger, Provider } from '@nestjs/common';
import { ErrorCode, FormSealedApplicantFields, FormSealedValue, ServiceError } from '@app/contracts';
import { SEALED_APPLICANT_FIELDS, SealedApplicantField } from './applicant-sealer';
import { SealedValueError } from './field-cipher';
import { FormOpener, FormSealer } from './form-sealing';

/** Whom the sealed fields of a form's message belong to: the form link (its token's digest) and the message. */
export interface FormMessageOwner {
  tokenDigest: string;
  messageId: string;
}

/**
 * The form's side of the identity numbers (id_number, dob, drivers_license_number): sealed to
 * FORM_SEALING_PUBLIC_KEY before they leave the process, bound to the form link they were
 * entered at and the message carrying them. The form holds no key that opens them again.
 */
@Injectable()
export class FormFieldSealer {
  constructor(private readonly sealer: FormSealer) {}

  sealFields(values: Partial<Record<SealedApplicantField, string>>, owner: FormMessageOwner): FormSealedApplicantFields {
    const sealed: FormSealedApplicantFields = {};
    for (const field of SEALED_APPLICANT_FIELDS) {
      const value = values[field];
      if (typeof value === 'string') sealed[field] = this.sealer.seal(value, `applicant.${field}`, formMessageOwner(owner));
    }
    return sealed;
  }

  /**
   * A whole section's value sealed as one: what an applicant typed (addresses, employer, income,
   * household, answers) never travels in clear, so that a message the broker dead-letters holds
   * none of it.
   */
  sealSection(section: object, owner: FormMessageOwner): FormSealedValue {
    return this.sealer.seal(JSON.stringify(section), 'form.section', formMessageOwner(owner));
  }
}

/**
 * The applications service's side: opens what FormFieldSealer sealed, with FORM_SEALING_KEYS.
 * Only a value sealed to one of those keys is taken: a FieldCipher envelope, such as a gateway
 * sends, is refused in a form's message, as a form's envelope is in a gateway's (ApplicantSealer).
 */
@Injectable()
export class FormFieldOpener {
  private readonly logger = new Logger('FormFieldOpener');

  constructor(private readonly opener: FormOpener) {}

  /**
   * The sealed fields in clear. A message whose envelope does not open, or that carries one of
   * the fields in clear `alongside` it (the rest of its section), did not come from a form: it is
   * refused.
   */
  openFields(sealed: unknown, owner: FormMessageOwner, alongside: object = {}): Partial<Record<SealedApplicantField, unknown>> {
    const opened: Partial<Record<SealedApplicantField, unknown>> = {};
    for (const field of SEALED_APPLICANT_FIELDS) {
      if (Object.prototype.hasOwnProperty.call(alongside, field)) throw this.refuse(`${field} came in clear`);
      const value = typeof sealed === 'object' && sealed !== null ? (sealed as Record<string, unknown>)[field] : undefined;
      if (value === undefined) continue;
      try {
        opened[field] = this.opener.open(value, `applicant.${field}`, formMessageOwner(owner));
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error;
        throw this.refuse(`sealed ${field} cannot be opened: ${error.message}`);
      }
    }
    return opened;
  }

  /** A section FormFieldSealer.sealSection sealed, in clear; a value that does not open is refused as a field is. */
  openSection(sealed: unknown, owner: FormMessageOwner): unknown {
    try {
      return JSON.parse(this.opener.open(sealed, 'form.section', formMessageOwner(owner))) as unknown;
    } catch (error) {
      if (!(error instanceof SealedValueError)) throw error;
      throw this.refuse(`sealed section cannot be opened: ${error.message}`);
    }
  }

  /** The reason goes to the operators' log (it holds no value); the sender learns only the refusal. */
  private refuse(reason: string): ServiceError {
    this.logger.warn(`form message refused: ${reason}`);
    return new ServiceError(ErrorCode.INTERNAL, 'message refused: applicant fields must travel sealed to a form sealing key');
  }
}

/** FormSealer from FORM_SEALING_PUBLIC_KEY (validated at boot), and the form's field sealer using it. */
export function formSealerProviders(environment: new () => { FORM_SEALING_PUBLIC_KEY: string }): Provider[] {
  return [
    {
      provide: FormSealer,
      inject: [environment],
      useFactory: (env: { FORM_SEALING_PUBLIC_KEY: string }) => new FormSealer(env.FORM_SEALING_PUBLIC_KEY),
    },
    FormFieldSealer,
  ];
}

/** FormOpener from FORM_SEALING_KEYS (validated at boot), and the field opener using it. */
export function formOpenerProviders(environment: new () => { FORM_SEALING_KEYS: string }): Provider[] {
  return [
    {
      provide: FormOpener,
      inject: [environment],
      useFactory: (env: { FORM_SEALING_KEYS: string }) => new FormOpener(env.FORM_SEALING_KEYS),
    },
    FormFieldOpener,
  ];
}

function formMessageOwner({ tokenDigest, messageId }: FormMessageOwner): string {
  return `form:${tokenDigest} message:${messageId}`;
}
