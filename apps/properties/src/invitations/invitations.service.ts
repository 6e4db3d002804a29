import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { publicBase } from '@app/config';
import { formatTimestamp, InvitationInput, InvitationRepresentation, ServiceError, UsableInvitation } from '@app/contracts';
import { formTokenDigest } from '@app/crypto';
import { NotificationNotices } from '@app/messaging';
import { PropertiesEnvironment } from '../config/properties.environment';
import { PropertiesRepository } from '../properties/properties.repository';
import { InvitationRecord, InvitationsRepository } from './invitations.repository';

const TOKEN_BYTES = 32;

/**
 * Invitations to a property's form, the only way in to an invitation_only one. Each is a link
 * with a random token, shown once; it opens the form with its address filled in until it expires,
 * and starts one application: its use is claimed once, even when two submissions race.
 */
@Injectable()
export class InvitationsService {
  private readonly applyBaseUrl: string;
  private readonly lifetimeMs: number;

  constructor(
    private readonly repository: InvitationsRepository,
    private readonly properties: PropertiesRepository,
    private readonly notices: NotificationNotices,
    env: PropertiesEnvironment,
  ) {
    this.applyBaseUrl = publicBase(env.APPLY_BASE_URL);
    this.lifetimeMs = env.INVITATION_LIFETIME_HOURS * 3600 * 1000;
  }

  /** A new invitation to the client's live property. */
  async create(clientId: number, propertyId: number, input: InvitationInput): Promise<InvitationRepresentation> {
    const property = await this.properties.findLive(clientId, propertyId);
    if (!property) throw ServiceError.propertyNotFound(propertyId);
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = new Date();
    const record: InvitationRecord = {
      id: await this.repository.newId(),
      client_id: clientId,
      property_id: propertyId,
      email: input.email,
      expires_at: new Date(now.getTime() + this.lifetimeMs),
      created_at: now,
    };
    await this.repository.create(formTokenDigest(token), record);
    const invitation = {
      id: record.id,
      property_id: propertyId,
      email: record.email,
      url: `${this.applyBaseUrl}/properties/${propertyId}/apply?invitation=${token}`,
      expires_at: formatTimestamp(record.expires_at),
    };
    if (input.send_email === true) {
      const { id, ...link } = invitation;
      await this.notices.invitation({
        ...link,
        id: `invitation_${id}`,
        invitation_id: id,
        client_id: clientId,
        property_name: property.name,
      });
    }
    return invitation;
  }

  /** The invitation, when it is one to this property, unexpired and unused; null otherwise. */
  async check(propertyId: number, digest: string): Promise<UsableInvitation | null> {
    const invitation = await this.repository.find(digest);
    if (!invitation || invitation.property_id !== propertyId || invitation.expires_at.getTime() <= Date.now()) return null;
    if (await this.repository.isUsed(digest)) return null;
    return { email: invitation.email };
  }

  /** Uses the invitation up, as `useId`; true for the one caller that did, when it was usable. */
  async use(propertyId: number, digest: string, useId: string | null = null): Promise<boolean> {
    if (!(await this.check(propertyId, digest))) return false;
    return this.repository.use(digest, useId);
  }

  /**
   * Makes the invitation usable again after the start it was used for failed (its service did
   * not answer, say): without this, the link would be dead with no application made. Only the
   * use `useId` made is undone; true when there was one.
   */
  async release(propertyId: number, digest: string, useId: string | null): Promise<boolean> {
    if (useId === null) return false;
    const invitation = await this.repository.find(digest);
    if (!invitation || invitation.property_id !== propertyId) return false;
    return this.repository.release(digest, useId);
  }
}
