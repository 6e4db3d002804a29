import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { AddApplicantRequest, CreateApplicationRequest, ErrorCode, parseRequest, ServiceError } from '@app/contracts';
import { ApplicantSealer } from './applicant-sealer';
import { FieldCipher } from './field-cipher';

const ring = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const GATEWAY_KEY = ring('k1');
const SSN_DASHED = '078-05-1120';
const SSN = '078051120';
const DOB = '1981-07-23';

function validated(applicant: Record<string, unknown> = {}): CreateApplicationRequest {
  return parseRequest(CreateApplicationRequest, {
    application: {
      property_id: 4,
      user_specified_rent: 1200,
      applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', ...applicant },
    },
  });
}

/** The client and message the gateway seals a request's values for. */
const OWNER = { clientId: 7, messageId: 'm-1' };

/** What crosses the broker: the message as JSON text, read back. */
const overTheWire = (message: unknown): unknown => JSON.parse(JSON.stringify(message));

function refusal(sealer: ApplicantSealer, message: unknown): ServiceError {
  try {
    sealer.open(message, OWNER.messageId);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('the message was opened');
}

beforeAll(() => Logger.overrideLogger(false));

function coApplicantRequest(fields: Record<string, unknown> = {}): AddApplicantRequest {
  return parseRequest(AddApplicantRequest, {
    applicant: { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', ...fields },
  });
}

describe('ApplicantSealer', () => {
  const gatewaySealer = new ApplicantSealer(new FieldCipher(GATEWAY_KEY));
  /** The gateway's side: each message with its client_id, sealed for OWNER. */
  const gateway = {
    seal: (request: CreateApplicationRequest) => ({ client_id: OWNER.clientId, ...gatewaySealer.seal(request, OWNER) }),
    sealCoApplicant: (request: AddApplicantRequest) => ({
      client_id: OWNER.clientId,
      ...gatewaySealer.sealCoApplicant(request, OWNER),
    }),
  };
  const service = new ApplicantSealer(new FieldCipher(GATEWAY_KEY));

  it('takes id_number and dob out of the request and seals them', () => {
    const message = gateway.seal(validated({ id_number: SSN_DASHED, dob: DOB, phone: '5550101234' }));
    const text = JSON.stringify(message);

    expect(text).not.toContain(SSN);
    expect(text).not.toContain(SSN_DASHED);
    expect(text).not.toContain(DOB);
    expect(text).not.toMatch(/"(id_number|dob)":"/);
    expect(Object.keys(message.sealed_applicant).sort()).toEqual(['dob', 'id_number']);
    expect(message.sealed_applicant.id_number?.key_id).toBe('k1');
    expect(message.request).toEqual({
      application: {
        property_id: 4,
        user_specified_rent: 1200,
        applicant: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '5550101234' },
      },
    });
  });

  it('opens them again into the request the gateway validated, which validates to itself', () => {
    const request = validated({ id_number: SSN_DASHED, dob: DOB });
    const opened = service.open(overTheWire(gateway.seal(request)), OWNER.messageId);

    expect(overTheWire(opened)).toEqual(overTheWire(request));
    expect(overTheWire(parseRequest(CreateApplicationRequest, opened))).toEqual(overTheWire(request));
  });

  it('leaves unset and null fields as they are, with nothing sealed', () => {
    const unset = gateway.seal(validated());
    expect(unset.sealed_applicant).toEqual({});
    expect(overTheWire(service.open(overTheWire(unset), OWNER.messageId))).toEqual(overTheWire(validated()));

    const nulls = gateway.seal(validated({ id_number: null, dob: null }));
    expect(nulls.sealed_applicant).toEqual({});
    expect((service.open(overTheWire(nulls), OWNER.messageId) as any).application.applicant).toMatchObject({
      id_number: null,
      dob: null,
    });
  });

  it('opens values sealed under an older key of the ring', () => {
    const rotated = new ApplicantSealer(new FieldCipher(`${ring('k2')},${GATEWAY_KEY}`));
    const opened = rotated.open(overTheWire(gateway.seal(validated({ id_number: SSN }))), OWNER.messageId);
    expect((opened as any).application.applicant.id_number).toBe(SSN);
  });

  it('seals each stored field for its own name and owner, so that it opens for no other', () => {
    const sealer = new ApplicantSealer(new FieldCipher(GATEWAY_KEY));
    const owner = { clientId: 7, applicantId: 80 };
    const sealed = overTheWire(sealer.sealField('dob', DOB, owner));
    expect(sealer.openField('dob', sealed, owner)).toBe(DOB);
    expect(() => sealer.openField('id_number', sealed, owner)).toThrow('failed authentication');
    // Copied into another applicant's record, or another client's, it does not open.
    expect(() => sealer.openField('dob', sealed, { clientId: 7, applicantId: 81 })).toThrow('failed authentication');
    expect(() => sealer.openField('dob', sealed, { clientId: 8, applicantId: 80 })).toThrow('failed authentication');
  });

  it('opens a value stored before owners were bound in, sealed for its field alone', () => {
    const cipher = new FieldCipher(GATEWAY_KEY);
    const stored = overTheWire(cipher.seal(SSN, 'applicant.id_number'));
    expect(stored).not.toHaveProperty('v');
    expect(new ApplicantSealer(cipher).openField('id_number', stored, { clientId: 7, applicantId: 80 })).toBe(SSN);
  });

  it('refuses values moved into a message of another client, or another message', () => {
    const sealed = gateway.seal(validated({ id_number: SSN, dob: DOB }));
    const moved = overTheWire({ ...sealed, client_id: 8 });
    expect(refusal(service, moved).code).toBe(ErrorCode.INTERNAL);
    expect(() => service.open(overTheWire(sealed), 'm-2')).toThrow(ServiceError);
    const co = gateway.sealCoApplicant(coApplicantRequest({ dob: DOB }));
    expect(() => service.openCoApplicant(overTheWire({ ...co, client_id: 8 }), OWNER.messageId)).toThrow(ServiceError);
  });

  it('refuses a message whose values are sealed for their field alone, bound to no client and message', () => {
    const cipher = new FieldCipher(GATEWAY_KEY);
    const message = overTheWire({
      ...gateway.seal(validated()),
      sealed_applicant: { id_number: cipher.seal(SSN, 'applicant.id_number') },
    });
    expect(refusal(service, message).code).toBe(ErrorCode.INTERNAL);
  });

  describe('refuses a message', () => {
    const sealedMessage = () => overTheWire(gateway.seal(validated({ id_number: SSN, dob: DOB }))) as any;

    it('that carries id_number or dob in clear', () => {
      for (const field of ['id_number', 'dob']) {
        const message = sealedMessage();
        message.request.application.applicant[field] = field === 'dob' ? DOB : SSN;
        const error = refusal(service, message);
        expect(error.code).toBe(ErrorCode.INTERNAL);
        expect(error.message).not.toContain(SSN);
        expect(error.message).not.toContain(DOB);
      }
    });

    it('sealed under a key the service does not hold', () => {
      const stranger = new ApplicantSealer(new FieldCipher(ring('k9')));
      expect(refusal(stranger, sealedMessage()).code).toBe(ErrorCode.INTERNAL);
    });

    it('whose sealed values were tampered with or swapped', () => {
      const tampered = sealedMessage();
      tampered.sealed_applicant.id_number.ciphertext = Buffer.from('999999999').toString('base64');
      expect(refusal(service, tampered).code).toBe(ErrorCode.INTERNAL);

      const swapped = sealedMessage();
      [swapped.sealed_applicant.id_number, swapped.sealed_applicant.dob] = [
        swapped.sealed_applicant.dob,
        swapped.sealed_applicant.id_number,
      ];
      expect(refusal(service, swapped).code).toBe(ErrorCode.INTERNAL);
    });

    it('whose sealed value is not one', () => {
      const message = sealedMessage();
      message.sealed_applicant.dob = DOB;
      expect(refusal(service, message).code).toBe(ErrorCode.INTERNAL);
    });
  });

  it.each([[undefined], [null], ['text'], [{}], [{ request: [1] }], [{ request: { application: 'x' } }]])(
    'hands a message of another shape (%j) on for the contract to refuse',
    (message) => {
      const request = service.open(message, OWNER.messageId);
      expect(() => parseRequest(CreateApplicationRequest, request)).toThrow(ServiceError);
    },
  );

  describe('a co-applicant', () => {
    const coApplicant = coApplicantRequest;

    it('is sealed and opened as the primary applicant is', () => {
      const message = overTheWire(gateway.sealCoApplicant(coApplicant({ id_number: SSN_DASHED, dob: DOB })));
      const text = JSON.stringify(message);
      expect(text).not.toContain(SSN);
      expect(text).not.toContain(DOB);
      expect((message as { request: unknown }).request).toEqual({
        applicant: { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' },
      });

      expect(parseRequest(AddApplicantRequest, service.openCoApplicant(message, OWNER.messageId))).toEqual(
        coApplicant({ id_number: SSN, dob: DOB }),
      );
    });

    it('leaves unset fields unset', () => {
      const message = overTheWire(gateway.sealCoApplicant(coApplicant()));
      expect((message as { sealed_applicant: unknown }).sealed_applicant).toEqual({});
      expect(parseRequest(AddApplicantRequest, service.openCoApplicant(message, OWNER.messageId))).toEqual(coApplicant());
    });

    it('is refused when a field comes in clear or sealed under an unknown key', () => {
      const clear = { request: { applicant: { first_name: 'A', last_name: 'B', email: 'a@example.com', id_number: SSN } } };
      expect(() => service.openCoApplicant(clear, OWNER.messageId)).toThrow(ServiceError);
      const stranger = new ApplicantSealer(new FieldCipher(ring('k9')));
      const sealed = overTheWire(gateway.sealCoApplicant(coApplicant({ dob: DOB })));
      expect(() => stranger.openCoApplicant(sealed, OWNER.messageId)).toThrow(ServiceError);
    });
  });
});
