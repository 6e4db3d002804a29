import { Injectable, OnModuleInit } from '@nestjs/common';
import { Ids, OnceRecords, Storage } from '@app/persistence';

/** A stored invitation: found by its token's digest (its key); the token itself is never stored. */
export interface InvitationRecord {
  id: number;
  client_id: number;
  property_id: number;
  email: string;
  expires_at: Date;
  created_at: Date;
}

/** That an invitation was used, by the start `use_id` names. */
interface InvitationUse {
  at: Date;
  use_id: string | null;
}

/**
 * Invitations in `invitations`, each under the SHA-256 of its token (base64url), and their uses
 * in `invitation_uses` under the same key: a use is claimed by inserting it (OnceRecords), which
 * the `_id` index makes happen once even when two submissions race.
 */
@Injectable()
export class InvitationsRepository implements OnModuleInit {
  private readonly invitations: OnceRecords<InvitationRecord>;
  private readonly uses: OnceRecords<InvitationUse>;
  private readonly ids: Ids;

  constructor(storage: Storage) {
    this.invitations = storage.onceRecords<InvitationRecord>('invitations');
    this.uses = storage.onceRecords<InvitationUse>('invitation_uses');
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.invitations.prepare();
    await this.uses.prepare();
  }

  newId(): Promise<number> {
    return this.ids.allocate('invitations');
  }

  /** Stores the invitation of the token whose digest is `digest`. */
  async create(digest: string, invitation: InvitationRecord): Promise<void> {
    if (!(await this.invitations.claim(digest, invitation))) throw new Error(`an invitation's token digest ${digest} is taken`);
  }

  /** The invitation of token digest `digest`, or null. */
  find(digest: string): Promise<InvitationRecord | null> {
    return this.invitations.get(digest);
  }

  async isUsed(digest: string): Promise<boolean> {
    return (await this.uses.get(digest)) !== null;
  }

  /** Uses the invitation up, as `useId`; true for the one caller that did. */
  use(digest: string, useId: string | null): Promise<boolean> {
    return this.uses.claim(digest, { at: new Date(), use_id: useId });
  }

  /** Undoes the use `useId` made of the invitation; true when there was one. */
  release(digest: string, useId: string): Promise<boolean> {
    return this.uses.releaseWhere(digest, { use_id: useId });
  }
}
