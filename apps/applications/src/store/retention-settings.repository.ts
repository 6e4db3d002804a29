import { Injectable, OnModuleInit } from '@nestjs/common';
import { DEFAULT_PERSONAL_DATA_DAYS, RetentionSettingsInput, RetentionSettingsRepresentation } from '@app/contracts';
import { Records, Storage } from '@app/persistence';

/** A client's settings under its id; a field null or absent is the default. */
interface RetentionSettingsRecord {
  client_id: number;
  personal_data_days?: number | null;
  updated_at: Date;
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

  async get(clientId: number): Promise<RetentionSettingsRepresentation> {
    const record = await this.records.get(String(clientId));
    return { personal_data_days: record?.personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS };
  }

  /** Sets the fields given (null: the default); those left out stay as they were. */
  async put(clientId: number, input: RetentionSettingsInput): Promise<RetentionSettingsRepresentation> {
    if (input.personal_data_days !== undefined) {
      await this.records.update(
        String(clientId),
        { set: { client_id: clientId, personal_data_days: input.personal_data_days, updated_at: new Date() } },
        { upsert: true },
      );
    }
    return this.get(clientId);
  }
}
