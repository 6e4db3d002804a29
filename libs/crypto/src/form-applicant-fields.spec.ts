import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { CreateApplicationRequest, ErrorCode, parseRequest, ServiceError } from '@app/contracts';
import { ApplicantSealer } from './applicant-sealer';
import { FieldCipher } from './field-cipher';
import { FormFieldOpener, FormFieldSealer } from './form-applicant-fields';
import { FormOpener, formSealingPublicKey, FormSealer } from './form-sealing';

const ring = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
/** One id for both kinds of key, so that only the kind of envelope tells them apart. */
const FORM_SEALING_KEYS = ring('k1');
const FIELD_ENCRYPTION_KEYS = ring('k1');
const OWNER = { tokenDigest: 'A'.repeat(43), messageId: 'm-1' };
const VALUES = { id_number: '078051120', dob: '1981-07-23', drivers_license_number: 'D1234567' };

/** What crosses the broker: the message as JSON text, read back. */
const overTheWire = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;

function refusal(open: () => unknown): ServiceError {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('the envelope was opened');
}

beforeAll(() => Logger.overrideLogger(false));

describe('the form’s envelope of the identity numbers', () => {
  const form = new FormFieldSealer(new FormSealer(formSealingPublicKey(FORM_SEALING_KEYS)));
  const service = new FormFieldOpener(new FormOpener(FORM_SEALING_KEYS));

  it('is sealed to the public key by the form and opened by the service, for the link and message', () => {
    const sealed = overTheWire(form.sealFields(VALUES, OWNER));
    expect(Object.keys(sealed).sort()).toEqual(['dob', 'drivers_license_number', 'id_number']);
    expect(JSON.stringify(sealed)).not.toContain(VALUES.id_number);
    expect(service.openFields(sealed, OWNER)).toEqual(VALUES);
    expect(service.openFields(form.sealFields({ dob: VALUES.dob }, OWNER), OWNER)).toEqual({ dob: VALUES.dob });
  });

  it('is refused when a field comes in clear beside it', () => {
    const sealed = overTheWire(form.sealFields({ dob: VALUES.dob }, OWNER));
    expect(service.openFields(sealed, OWNER, { middle_name: 'King' })).toEqual({ dob: VALUES.dob });
    expect(refusal(() => service.openFields(sealed, OWNER, { id_number: VALUES.id_number })).code).toBe(ErrorCode.INTERNAL);
  });

  it('is refused for another link or message', () => {
    const sealed = overTheWire(form.sealFields(VALUES, OWNER));
    expect(refusal(() => service.openFields(sealed, { ...OWNER, messageId: 'm-2' })).code).toBe(ErrorCode.INTERNAL);
    expect(refusal(() => service.openFields(sealed, { ...OWNER, tokenDigest: 'B'.repeat(43) })).code).toBe(ErrorCode.INTERNAL);
  });

  it('is refused when sealed with FIELD_ENCRYPTION_KEYS, as a form holding the symmetric ring sealed it', () => {
    const cipher = new FieldCipher(FIELD_ENCRYPTION_KEYS);
    const symmetric = {
      id_number: cipher.seal(VALUES.id_number, 'applicant.id_number', `form:${OWNER.tokenDigest} message:${OWNER.messageId}`),
    };
    expect(refusal(() => service.openFields(overTheWire(symmetric), OWNER)).message).toBe(
      'message refused: applicant fields must travel sealed to a form sealing key',
    );
  });

  it('is refused in a gateway’s message, whose envelope the service opens with FIELD_ENCRYPTION_KEYS only', () => {
    const gatewayOwner = { clientId: 7, messageId: OWNER.messageId };
    const request = parseRequest(CreateApplicationRequest, {
      application: { property_id: 4, applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'g@example.com' } },
    });
    const formSealed = new FormSealer(formSealingPublicKey(FORM_SEALING_KEYS)).seal(
      VALUES.id_number,
      'applicant.id_number',
      `client:${gatewayOwner.clientId} message:${gatewayOwner.messageId}`,
    );
    const message = overTheWire({ client_id: 7, request, sealed_applicant: { id_number: formSealed } });
    const applications = new ApplicantSealer(new FieldCipher(FIELD_ENCRYPTION_KEYS));
    expect(refusal(() => applications.open(message, gatewayOwner.messageId)).code).toBe(ErrorCode.INTERNAL);
  });
});
