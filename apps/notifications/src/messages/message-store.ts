import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { MAX_LISTED_MESSAGES } from '@app/contracts';
import { claimed, ignoreExistingCollection } from '@app/persistence';
import { erasedMessage, MessageRecord } from './message-record';

/** The messages, in the notifications service's own database. */
@Injectable()
export class MessageStore implements OnModuleInit {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get messages() {
    return this.connection.collection<MessageRecord>('messages');
  }

  /** `<message key>` once its first send task is queued: insert-once, as FerretDB's updates are not atomic. */
  private get queued() {
    return this.connection.collection<{ _id: string; at: Date }>('messages_queued');
  }

  /** `<client>:<application>` once the application's personal data is erased: no message about it is made after. */
  private get erasures() {
    return this.connection.collection<{ _id: string; at: Date }>('messages_erased');
  }

  async onModuleInit(): Promise<void> {
    await this.connection.createCollection('messages').catch(ignoreExistingCollection);
    await this.connection.createCollection('messages_queued').catch(ignoreExistingCollection);
    await this.connection.createCollection('messages_erased').catch(ignoreExistingCollection);
  }

  /**
   * Erases the addresses and contents of every message about the client's application (see
   * erasedMessage), and marks it so that none is made after; returns the keys the messages had,
   * each with the key of its erased copy.
   * Each step may be done again, by any instance: the erased copy is inserted once before the
   * message is removed. A scan on FerretDB, as listForApplicant.
   */
  async eraseApplication(clientId: number, applicationId: number): Promise<Array<{ key: string; erased: string }>> {
    await claimed(this.erasures.insertOne({ _id: `${clientId}:${applicationId}`, at: new Date() }));
    const named = await this.messages.find({ client_id: clientId, application_id: applicationId, to: { $ne: null } }).toArray();
    const keys = [];
    for (const record of named) {
      const erased = erasedMessage(record);
      await claimed(this.messages.insertOne(erased));
      await this.messages.deleteOne({ _id: record._id });
      await this.queued.deleteOne({ _id: record._id });
      keys.push({ key: record._id, erased: erased._id });
    }
    return keys;
  }

  async isErased(clientId: number, applicationId: number): Promise<boolean> {
    return (await this.erasures.findOne({ _id: `${clientId}:${applicationId}` }, { projection: { _id: 1 } })) !== null;
  }

  /** Records that the message's first send task is queued; once, whoever records it. */
  async markQueued(key: string): Promise<void> {
    await claimed(this.queued.insertOne({ _id: key, at: new Date() }));
  }

  async isQueued(key: string): Promise<boolean> {
    return (await this.queued.findOne({ _id: key }, { projection: { _id: 1 } })) !== null;
  }

  /** Stores the message; false when one is stored under its key already. */
  create(record: MessageRecord): Promise<boolean> {
    return claimed(this.messages.insertOne(record));
  }

  find(key: string): Promise<MessageRecord | null> {
    return this.messages.findOne({ _id: key });
  }

  /**
   * Takes the message for one attempt, until `until`: true for the one instance that did, while
   * it is still to be sent and nobody else holds it (or the one who did stopped before its lease ran out).
   */
  async lease(key: string, now: Date, until: Date): Promise<boolean> {
    const { modifiedCount } = await this.messages.updateOne(
      { _id: key, status: { $in: ['pending', 'retrying'] }, $or: [{ lease_until: null }, { lease_until: { $lt: now } }] },
      { $set: { lease_until: until } },
    );
    return modifiedCount === 1;
  }

  async update(key: string, changes: Partial<Omit<MessageRecord, '_id'>>): Promise<void> {
    await this.messages.updateOne({ _id: key }, { $set: changes });
  }

  /** Changes the message only while it is `held`: true when it did. */
  async updateWhileHeld(key: string, changes: Partial<Omit<MessageRecord, '_id'>>): Promise<boolean> {
    return (await this.messages.updateOne({ _id: key, status: 'held' }, { $set: changes })).modifiedCount === 1;
  }

  /** The client's applicant's messages, newest first. */
  listForApplicant(clientId: number, applicationId: number, applicantId: number): Promise<MessageRecord[]> {
    return this.messages
      .find({ client_id: clientId, application_id: applicationId, applicant_id: applicantId })
      .sort({ created_at: -1 })
      .limit(MAX_LISTED_MESSAGES)
      .toArray();
  }
}
