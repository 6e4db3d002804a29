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

  /** The bytes of documents each client's applicants may keep, in MB: past it, an upload is refused. */
  @isIntegerInRange('DOCUMENT_STORAGE_PER_CLIENT_MB', 1, 10_000_000)
  DOCUMENT_STORAGE_PER_CLIENT_MB: number = 10_240;

  /** `client_id:MB` entries, comma separated: clients whose budget is not DOCUMENT_STORAGE_PER_CLIENT_MB. */
  @Matches(/^(\d{1,15}:\d{1,8}(,\d{1,15}:\d{1,8})*)?$/, {
    message: 'CLIENT_DOCUMENT_STORAGE_MB must be client_id:MB entries, comma separated',
  })
  CLIENT_DOCUMENT_STORAGE_MB: string = '';

  /**
   * The percent of each client's document budget that uploads on forms started on the public form
   * and not yet completed by their applicant may hold: what strangers can take of it.
   */
  @isIntegerInRange('UNSUBMITTED_DOCUMENT_STORAGE_PERCENT', 1, 100)
  UNSUBMITTED_DOCUMENT_STORAGE_PERCENT: number = 10;

  /** The client's document storage budget, in bytes. */
  documentStorageBytes(clientId: number): number {
    const own = this.CLIENT_DOCUMENT_STORAGE_MB.split(',').find((entry) => entry.startsWith(`${clientId}:`));
    return (own ? Number(own.split(':')[1]) : this.DOCUMENT_STORAGE_PER_CLIENT_MB) * 1024 * 1024;
  }

  /** The bytes of the client's budget that uploads on public forms not yet completed may hold. */
  unsubmittedDocumentStorageBytes(clientId: number): number {
    return Math.floor((this.documentStorageBytes(clientId) * this.UNSUBMITTED_DOCUMENT_STORAGE_PERCENT) / 100);
  }

  /** How long audit events (reads of applicants' sensitive data) are kept. */
  @isIntegerInRange('AUDIT_RETENTION_DAYS', 1, 3650)
  AUDIT_RETENTION_DAYS: number = 365;

  /**
   * How many days without a change an application started on the public form and completed by
   * nobody keeps its personal data; as long as the form's FORM_LINK_LIFETIME_DAYS by default, after
   * which its link no longer works.
   */
  @isIntegerInRange('ABANDONED_FORM_DAYS', 1, 3650)
  ABANDONED_FORM_DAYS: number = 30;
}
