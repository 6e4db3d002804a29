import { Injectable } from '@nestjs/common';
import {
  DEFAULT_PERSONAL_DATA_DAYS,
  formatTimestamp,
  RetentionSettingsInput,
  RetentionSettingsRepresentation,
  SensitiveReader,
} from '@app/contracts';
import { changedRetention, pendingRetention, retentionInEffect, StoredRetention } from '../domain/retention-settings';
import { AuditEventsRepository } from '../store/audit-events.repository';
import { RetentionSettingsRepository } from '../store/retention-settings.repository';

/**
 * How long a client's decided applications keep their applicants' personal data: the days in
 * effect, which the sweep erases by, and a shortening that waits (see changedRetention). Every
 * change is an audit event naming the key and request, the days before and after.
 */
@Injectable()
export class RetentionSettings {
  constructor(
    private readonly settings: RetentionSettingsRepository,
    private readonly audit: AuditEventsRepository,
  ) {}

  async get(clientId: number, now = Date.now()): Promise<RetentionSettingsRepresentation> {
    return represent(await this.settings.get(clientId), now);
  }

  /** The days the client's applications keep personal data as of `now`. */
  async daysInEffect(clientId: number, now: number): Promise<number> {
    return retentionInEffect(await this.settings.get(clientId), now);
  }

  /** Sets the fields given, as `requester` asked (null from a gateway that did not say); the audit event first. */
  async put(
    clientId: number,
    input: RetentionSettingsInput,
    requester: SensitiveReader | null,
    now = Date.now(),
  ): Promise<RetentionSettingsRepresentation> {
    if (input.personal_data_days === undefined) return this.get(clientId, now);
    const changed = changedRetention(
      await this.settings.get(clientId),
      input.personal_data_days,
      !!input.confirm_shortening,
      now,
    );
    await this.audit.recordRetentionChange(clientId, requester, {
      before: changed.previous_personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS,
      after: changed.personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS,
      effectiveAt: changed.effective_at,
    });
    await this.settings.put(clientId, changed, requester);
    return represent(changed, now);
  }
}

function represent(stored: StoredRetention | null, now: number): RetentionSettingsRepresentation {
  const pending = pendingRetention(stored, now);
  return {
    personal_data_days: retentionInEffect(stored, now),
    pending_change: pending && { personal_data_days: pending.days, effective_at: formatTimestamp(pending.effectiveAt) },
  };
}
