import { Injectable, OnModuleInit } from '@nestjs/common';
import { ErasureTrigger, SensitiveReader } from '@app/contracts';
import { OnceRecords, Storage } from '@app/persistence';

/**
 * An application's erasure, under the application's key: the insert that only the first of two
 * erasures at once makes, which fixes when it was erased, who asked and the ids of its audit
 * events, so that whoever completes it, again or at the same time, completes the same one.
 */
export interface ErasureRecord {
  application_id: number;
  client_id: number;
  erased_at: Date;
  /** The API key and request that asked; null when the retention period ran out. */
  requester: Pick<SensitiveReader, 'key_id' | 'request_id'> | null;
  /** What made it, which its audit events name; absent on erasures recorded before it was told. */
  trigger?: ErasureTrigger;
  audit_events: Array<{ applicant_id: number; event_id: number }>;
  /** When it was completed long enough after erased_at that nothing under way then can still write; absent until then. */
  settled_at?: Date;
}

@Injectable()
export class ErasuresRepository implements OnModuleInit {
  private readonly erasures: OnceRecords<ErasureRecord>;

  constructor(storage: Storage) {
    this.erasures = storage.onceRecords<ErasureRecord>('personal_data_erasures');
  }

  onModuleInit(): Promise<void> {
    return this.erasures.prepare();
  }

  /** The application's erasure recorded earlier, or null. */
  async find(applicationId: number): Promise<ErasureRecord | null> {
    return this.erasures.get(String(applicationId));
  }

  /** Records the erasure unless one is recorded already; the one that stands. */
  async record(erasure: ErasureRecord): Promise<ErasureRecord> {
    return (await this.erasures.claimOrRead(String(erasure.application_id), erasure)).record;
  }

  async settle(applicationId: number, at: Date): Promise<void> {
    await this.erasures.annotate(String(applicationId), { settled_at: at });
  }

  /** The erasures not settled yet that were made at or before `before`. A scan on FerretDB, hence for the sweep alone. */
  unsettledBefore(before: Date): Promise<ErasureRecord[]> {
    return this.erasures.scan({ settled_at: { $exists: false }, erased_at: { $lte: before } });
  }
}
