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

/** Each client's sender name, reply-to address and screening agency, read by `_id` (the client id). */
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
    const agency = record?.screening_agency;
    return {
      sender_name: record?.sender_name ?? null,
      reply_to: record?.reply_to ?? null,
      screening_agency: agency ? { name: agency.name, address: agency.address, phone: agency.phone } : null,
    };
  }

  /** Sets what the input names (null unsets it); what it leaves out stays as it was. */
  async put(clientId: number, input: NotificationSettingsInput): Promise<NotificationSettingsRepresentation> {
    const { screening_agency: agency, ...rest } = input;
    const changes: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    if (agency !== undefined)
      changes.screening_agency = agency && { name: agency.name, address: agency.address, phone: agency.phone };
    await this.settings.updateOne({ _id: clientId }, { $set: { ...changes, updated_at: new Date() } }, { upsert: true });
    return this.get(clientId);
  }
}
