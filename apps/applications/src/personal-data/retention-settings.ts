import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { DEFAULT_PERSONAL_DATA_DAYS, RetentionSettingsInput, RetentionSettingsRepresentation } from '@app/contracts';
import { documentKey, ignoreExistingCollection } from '@app/persistence';

const RETENTION_SETTINGS = 'retention_settings';

/** A client's settings under `_id` = its id; a field null or absent is the default. */
interface RetentionSettingsRecord {
  _id: string;
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
export class RetentionSettings implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get records() {
    return this.connection.collection<RetentionSettingsRecord>(RETENTION_SETTINGS);
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection(RETENTION_SETTINGS).catch(ignoreExistingCollection);
  }

  async get(clientId: number): Promise<RetentionSettingsRepresentation> {
    const record = await this.records.findOne({ _id: documentKey(clientId) });
    return { personal_data_days: record?.personal_data_days ?? DEFAULT_PERSONAL_DATA_DAYS };
  }

  /** Sets the fields given (null: the default); those left out stay as they were. */
  async put(clientId: number, input: RetentionSettingsInput): Promise<RetentionSettingsRepresentation> {
    if (input.personal_data_days !== undefined) {
      await this.records.updateOne(
        { _id: documentKey(clientId) },
        { $set: { client_id: clientId, personal_data_days: input.personal_data_days, updated_at: new Date() } },
        { upsert: true },
      );
    }
    return this.get(clientId);
  }
}
