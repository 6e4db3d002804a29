import { Provider } from '@nestjs/common';
import { ApplicantSealer } from './applicant-sealer';
import { FieldCipher } from './field-cipher';

/** An app's environment class that declares FIELD_ENCRYPTION_KEYS (validated at boot). */
type WithFieldEncryptionKeys = new () => { FIELD_ENCRYPTION_KEYS: string };

/** The cipher built from the app's FIELD_ENCRYPTION_KEYS. */
export function fieldCipherProvider(environment: WithFieldEncryptionKeys): Provider {
  return {
    provide: FieldCipher,
    inject: [environment],
    useFactory: (env: { FIELD_ENCRYPTION_KEYS: string }) => new FieldCipher(env.FIELD_ENCRYPTION_KEYS),
  };
}

/** The cipher built from the app's FIELD_ENCRYPTION_KEYS, and the sealer using it. */
export function fieldCipherProviders(environment: WithFieldEncryptionKeys): Provider[] {
  return [fieldCipherProvider(environment), ApplicantSealer];
}
