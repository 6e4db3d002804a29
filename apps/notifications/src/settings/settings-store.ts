import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { NotificationSettingsInput, NotificationSettingsRepresentation } from '@app/contracts';
import { ignoreExistingCollection } from '@app/persistence';

interface SettingsRecord extends NotificationSettingsRepresentation {
  /** The client id. */
  _id: number;
  updated_at: Date;
}

/** Each client's sender name and reply-to address, read by `_id` (the client id). */
@Injectable()
export class SettingsStore implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get settings() {
    return this.connection.collection<SettingsRecord>('settings');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('settings').catch(ignoreExistingCollection);
  }

  async get(clientId: number): Promise<NotificationSettingsRepresentation> {
    const record = await this.settings.findOne({ _id: clientId });
    // A field never set is absent from the record (FerretDB applies no $setOnInsert on an upsert).
    return { sender_name: record?.sender_name ?? null, reply_to: record?.reply_to ?? null };
  }

  /** Sets what the input names (null unsets it); what it leaves out stays as it was. */
  async put(clientId: number, input: NotificationSettingsInput): Promise<NotificationSettingsRepresentation> {
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    await this.settings.updateOne({ _id: clientId }, { $set: { ...changes, updated_at: new Date() } }, { upsert: true });
    return this.get(clientId);
  }
}
