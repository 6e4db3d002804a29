import { Injectable } from '@nestjs/common';
import { SealedValue } from '@app/contracts';
import { FieldCipher } from '@app/crypto';

/** Whose signing secret a sealed one is: bound into it, so that it opens for that subscription only. */
export interface SecretOwner {
  clientId: number;
  webhookId: number;
}

/** A signing secret as stored: sealed, or in clear when it was stored before secrets were sealed. */
export type StoredSecret = SealedValue | string;

const CONTEXT = 'webhook.secret';

/**
 * Seals subscriptions' signing secrets with the FIELD_ENCRYPTION_KEYS key ring, as applicants'
 * SSNs are: the first key seals, every key opens, so a rotated ring still opens old secrets.
 */
@Injectable()
export class WebhookSecrets {
  constructor(private readonly cipher: FieldCipher) {}

  seal(secret: string, owner: SecretOwner): SealedValue {
    return this.cipher.seal(secret, CONTEXT, ownerOf(owner));
  }

  /** The secret in clear; one stored in clear before secrets were sealed is taken as it is. */
  open(stored: StoredSecret, owner: SecretOwner): string {
    return typeof stored === 'string' ? stored : this.cipher.open(stored, CONTEXT, ownerOf(owner));
  }
}

function ownerOf({ clientId, webhookId }: SecretOwner): string {
  return `client:${clientId} webhook:${webhookId}`;
}
