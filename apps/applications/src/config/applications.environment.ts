import { Matches } from 'class-validator';
import { HTTP_URL, isIntegerInRange, isTimeout, ServiceEnvironment } from '@app/config';
import { isFieldEncryptionKeys, isFormLinkKeys, isFormSealingKeys } from '@app/crypto';

export class ApplicationsEnvironment extends ServiceEnvironment {
  override HTTP_PORT: number = 3002;

  /** How long to wait for the properties service to confirm a property_id. */
  @isTimeout('PROPERTY_LOOKUP_TIMEOUT_MS')
  PROPERTY_LOOKUP_TIMEOUT_MS: number = 2000;

  /** `id:base64key` entries: the first seals applicants' id_number and dob, every one opens them. */
  /** Public base URL of the online application form: applicants' form_url starts with it. */
  @Matches(HTTP_URL, { message: 'APPLY_BASE_URL must be an absolute http(s) URL' })
  APPLY_BASE_URL: string = 'http://localhost:3003';

  @isFieldEncryptionKeys()
  FIELD_ENCRYPTION_KEYS: string;

  /**
   * `id:base64key` entries, keys of their own: the first signs applicants' form links, every one
   * is accepted (the form holds the same ring to check them).
   */
  @isFormLinkKeys()
  FORM_LINK_KEYS: string;

  /**
   * `id:base64key` entries of X25519 private keys: the form seals the identity numbers and
   * documents' data keys to the first one's public key (its FORM_SEALING_PUBLIC_KEY), every one
   * opens them, so the form holds nothing that opens what is stored.
   */
  @isFormSealingKeys()
  FORM_SEALING_KEYS: string;

  /** How long audit events (reads of applicants' sensitive data) are kept. */
  @isIntegerInRange('AUDIT_RETENTION_DAYS', 1, 3650)
  AUDIT_RETENTION_DAYS: number = 365;
}
