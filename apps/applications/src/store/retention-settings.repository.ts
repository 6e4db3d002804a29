import { Injectable, OnModuleInit } from '@nestjs/common';
import { SensitiveReader } from '@app/contracts';
import { Records, Storage } from '@app/persistence';
import { StoredRetention } from '../domain/retention-settings';

/** A client's settings under its id (see StoredRetention), and who changed them last. */
interface RetentionSettingsRecord extends StoredRetention {
  client_id: number;
  updated_at: Date;
  /** The key and request of the last change; absent on records kept before changes were told. */
  updated_by?: Pick<SensitiveReader, 'key_id' | 'request_id'> | null;
}

/**
 * How long each client's decided applications keep their applicants' personal data. Kept by the
 * applications service, which erases it: the sweep reads it without asking another service, and
 * the gateway, upgraded last, is the only one that asks for it.
 */
@Injectable()
export class RetentionSettingsRepository implements OnModuleInit {
  private readonly records: Records<RetentionSettingsRecord>;

  constructor(storage: Storage) {
    this.records = storage.records<RetentionSettingsRecord>('retention_settings');
  }

  onModuleInit(): Promise<void> {
    return this.records.prepare();
  }

  /** The client's settings as stored, or null when it set none. */
  async get(clientId: number): Promise<StoredRetention | null> {
    return this.records.get(String(clientId));
  }

  /** Stores the client's settings, and who changed them. */
  async put(clientId: number, settings: Required<StoredRetention>, by: SensitiveReader | null): Promise<void> {
    const updated_by = by && { key_id: by.key_id, request_id: by.request_id };
    await this.records.update(
      String(clientId),
      { set: { client_id: clientId, ...settings, updated_at: new Date(), updated_by } },
      { upsert: true },
    );
  }
}
