import { isTimeout, ServiceEnvironment } from '@app/config';
import { isFieldEncryptionKeys } from '@app/crypto';

export class ApplicationsEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3002;

  /** How long to wait for the properties service to confirm a property_id. */
  @isTimeout('PROPERTY_LOOKUP_TIMEOUT_MS')
  PROPERTY_LOOKUP_TIMEOUT_MS: number = 2000;

  /** `id:base64key` entries: the first seals applicants' id_number and dob, every one opens them. */
  @isFieldEncryptionKeys()
  FIELD_ENCRYPTION_KEYS: string;
}
