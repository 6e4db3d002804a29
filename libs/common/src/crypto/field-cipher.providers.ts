import { Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApplicantSealer } from './applicant-sealer';
import { FieldCipher } from './field-cipher';

/** The cipher built from FIELD_ENCRYPTION_KEYS (validated at boot), and the sealer using it. */
export const FIELD_CIPHER_PROVIDERS: Provider[] = [
  {
    provide: FieldCipher,
    inject: [ConfigService],
    useFactory: (config: ConfigService<{ FIELD_ENCRYPTION_KEYS: string }, true>) =>
      new FieldCipher(config.get('FIELD_ENCRYPTION_KEYS')),
  },
  ApplicantSealer,
];
