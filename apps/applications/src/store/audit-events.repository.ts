import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  AuditAction,
  AuditEventRepresentation,
  AuditReadKind,
  encodeCursor,
  ErasureTrigger,
  formatTimestamp,
  Page,
  PERSONAL_DATA_ERASED,
  RETENTION_SETTINGS_CHANGED,
  SENSITIVE_DATA_READ,
  SensitiveReader,
  SUPPRESSION_LIFTED,
} from '@app/contracts';
import { Ids, OrderedLists, Records, Storage } from '@app/persistence';
import { ApplicationsEnvironment } from '../config/applications.environment';

const AUDIT_EVENTS = 'audit_events';
const AUDIT_INDEX = 'audit_index';
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often each instance deletes what has expired; readers never show it meanwhile. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Positions one page reads at most, so that expired or missing entries cannot make a page unbounded. */
const MAX_PAGE_SCAN = 500;

interface AuditEventRecord {
  id: number;
  action: AuditAction;
  client_id: number;
  /**
   * The API key that read, asked for an erasure or changed the retention; null for an erasure no
   * key asked for (its trigger says what made it).
   */
  key_id: string | null;
  /** Null on a change of the retention period, which is the client's. */
  application_id: number | null;
  applicant_id: number | null;
  /** What made an erasure (events recorded before it was told have none). */
  trigger?: ErasureTrigger;
  /** On a change of the retention period: the days in effect before, those asked for, and when they apply. */
  retention_change?: { personal_data_days_before: number; personal_data_days_after: number; effective_at: Date };
  /** What was read (events recorded before it was told have none). */
  read?: AuditReadKind;
  /** The document downloaded, on a `document` read. */
  document_id?: number;
  request_id: string | null;
  created_at: Date;
  /** When it may be deleted: AUDIT_RETENTION_DAYS after it was made. */
  expires_at: Date;
}

/**
 * The audit events of one erasure, one per applicant, under ids allocated before the erasure was
 * recorded (see PersonalDataErasure), so that whoever records them again stores each once.
 */
export interface ErasureAudit {
  client_id: number;
  application_id: number;
  erased_at: Date;
  /** The API key and request that asked; null when the retention period ran out. */
  requester: Pick<SensitiveReader, 'key_id' | 'request_id'> | null;
  /** What made it; absent on erasures recorded before it was told. */
  trigger?: ErasureTrigger;
  events: Array<{ applicant_id: number; event_id: number }>;
}

/** A change of the client's retention period, as its audit event tells it. */
export interface RetentionChangeAudit {
  before: number;
  after: number;
  effectiveAt: Date;
}

export interface AuditQuery {
  applicantId?: number;
  limit: number;
  before?: number;
}

/**
 * The record of every read of an applicant's sensitive data, every erasure of its personal data
 * and every change of the client's retention period, kept AUDIT_RETENTION_DAYS. An event
 * is stored under its id and listed in its client's list and its applicant's (OrderedLists), so
 * that a page is reads by `_id` only. Lifetime: MongoDB removes an expired event through a TTL
 * index on `expires_at`; FerretDB has none, so every instance also deletes what has expired once
 * an hour, list entries included (on either database), and readers skip what has expired and is
 * not deleted yet.
 */
@Injectable()
export class AuditEventsRepository implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuditEvents');
  private readonly events: Records<AuditEventRecord>;
  private readonly lists: OrderedLists;
  private readonly ids: Ids;
  private readonly retentionMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(storage: Storage, env: ApplicationsEnvironment) {
    this.retentionMs = env.AUDIT_RETENTION_DAYS * DAY_MS;
    this.events = storage.records<AuditEventRecord>(AUDIT_EVENTS, { expiresAt: 'expires_at' });
    // The lists' entries go through the sweep only, which keeps each list's head past those it
    // removes: no TTL index may remove them behind its back.
    this.lists = storage.orderedLists(AUDIT_INDEX, { field: 'audit_event_id', expiresAt: () => this.expiry(new Date()) });
    this.ids = storage.ids();
  }

  async onModuleInit(): Promise<void> {
    await this.events.prepare();
    await this.lists.prepare();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS).unref();
    await this.sweep();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  /** Records a read of the applicant's sensitive data; the read is answered only once this is stored. */
  async recordRead(
    clientId: number,
    reader: SensitiveReader,
    subject: { applicationId: number; applicantId: number; read?: 'document' | 'document_list'; documentId?: number },
  ): Promise<void> {
    const created_at = new Date();
    await this.store(
      {
        id: await this.ids.allocate(AUDIT_EVENTS),
        action: SENSITIVE_DATA_READ,
        client_id: clientId,
        key_id: reader.key_id,
        application_id: subject.applicationId,
        applicant_id: subject.applicantId,
        // The service knows a document read from an applicant read; only the gateway knows a
        // read made for a summary PDF, and says so in the reader.
        read: subject.read ?? reader.purpose ?? 'applicant',
        ...(subject.documentId === undefined ? {} : { document_id: subject.documentId }),
        request_id: reader.request_id,
        created_at,
        expires_at: this.expiry(created_at),
      },
      subject.applicantId,
    );
  }

  /**
   * Records a change of the client's retention period, by `requester` (null: a gateway of the
   * release before, which did not say); the change is stored only once this is.
   */
  async recordRetentionChange(clientId: number, requester: SensitiveReader | null, change: RetentionChangeAudit): Promise<void> {
    const created_at = new Date();
    await this.store({
      id: await this.ids.allocate(AUDIT_EVENTS),
      action: RETENTION_SETTINGS_CHANGED,
      client_id: clientId,
      key_id: requester?.key_id ?? null,
      application_id: null,
      applicant_id: null,
      retention_change: {
        personal_data_days_before: change.before,
        personal_data_days_after: change.after,
        effective_at: change.effectiveAt,
      },
      request_id: requester?.request_id ?? null,
      created_at,
      expires_at: this.expiry(created_at),
    });
  }

  /** Records that `requester` lifts an address's suppression for the client's mail; the lift follows once this is stored. */
  async recordSuppressionLift(clientId: number, requester: SensitiveReader): Promise<void> {
    const created_at = new Date();
    await this.store({
      id: await this.ids.allocate(AUDIT_EVENTS),
      action: SUPPRESSION_LIFTED,
      client_id: clientId,
      key_id: requester.key_id,
      application_id: null,
      applicant_id: null,
      request_id: requester.request_id,
      created_at,
      expires_at: this.expiry(created_at),
    });
  }

  /** Stores the event and lists it in its client's list, and its applicant's when it has one. */
  private async store(event: AuditEventRecord, applicantId?: number): Promise<void> {
    // Listed beside the insert: readers skip an entry until its event exists.
    await Promise.all([
      this.events.insert(String(event.id), event),
      this.lists.append(listName(event.client_id), event.id),
      ...(applicantId === undefined ? [] : [this.lists.append(listName(event.client_id, applicantId), event.id)]),
    ]);
  }

  /** Ids for `count` audit events to come. */
  async allocateIds(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await this.ids.allocate(AUDIT_EVENTS));
    return ids;
  }

  /**
   * Records an erasure's events, each once however often this is done: each is inserted under its
   * id, and listed by the call whose insert stored it.
   */
  async recordErasure(audit: ErasureAudit): Promise<void> {
    for (const { applicant_id, event_id } of audit.events) {
      const stored = await this.events.insert(String(event_id), {
        id: event_id,
        action: PERSONAL_DATA_ERASED,
        client_id: audit.client_id,
        key_id: audit.requester?.key_id ?? null,
        application_id: audit.application_id,
        applicant_id,
        ...(audit.trigger ? { trigger: audit.trigger } : {}),
        request_id: audit.requester?.request_id ?? null,
        created_at: audit.erased_at,
        expires_at: this.expiry(audit.erased_at),
      });
      if (!stored) continue;
      await Promise.all([
        this.lists.append(listName(audit.client_id), event_id),
        this.lists.append(listName(audit.client_id, applicant_id), event_id),
      ]);
    }
  }

  /** A page of the client's audit events (of one applicant, if given), newest first. */
  async list(clientId: number, query: AuditQuery): Promise<Page<AuditEventRepresentation>> {
    const name = listName(clientId, query.applicantId);
    const head = await this.lists.head(name);
    let position = query.before === undefined ? head : Math.min(query.before - 1, head);
    const items: AuditEventRepresentation[] = [];
    const now = Date.now();
    for (let scanned = 0; items.length < query.limit && position >= 1 && scanned < MAX_PAGE_SCAN;) {
      const count = Math.min(query.limit - items.length, position);
      const entries = await this.lists.read(name, position, count);
      const found = await this.events.getMany(entries.map((entry) => String(entry.id)));
      const events = entries.map((entry) => found.get(String(entry.id)));
      for (const event of events) {
        if (event && event.client_id === clientId && event.expires_at.getTime() > now)
          items.push(toAuditEventRepresentation(event));
      }
      position -= count;
      scanned += count;
    }
    return { items, next_cursor: position >= 1 ? encodeCursor(position + 1) : null };
  }

  /** Deletes what has expired. A scan on FerretDB, hence hourly and never on a request's path. */
  async sweep(now = new Date()): Promise<void> {
    try {
      await this.events.removeWhere({ expires_at: { $lte: now } });
      // Through the lists, which keep each list's head past the entries removed.
      await this.lists.remove({ expires_at: { $lte: now } });
    } catch (error) {
      this.logger.warn(`expired audit events not deleted this time: ${(error as Error).message}`);
    }
  }

  private expiry(from: Date): Date {
    return new Date(from.getTime() + this.retentionMs);
  }
}

function listName(clientId: number, applicantId?: number): string {
  return applicantId === undefined ? `c${clientId}` : `c${clientId}:a${applicantId}`;
}

export function toAuditEventRepresentation(event: AuditEventRecord): AuditEventRepresentation {
  return {
    id: event.id,
    action: event.action,
    client_id: event.client_id,
    key_id: event.key_id,
    application_id: event.application_id,
    applicant_id: event.applicant_id,
    read: event.read ?? null,
    document_id: event.document_id ?? null,
    request_id: event.request_id,
    trigger: event.trigger ?? null,
    retention_change: event.retention_change
      ? { ...event.retention_change, effective_at: formatTimestamp(event.retention_change.effective_at) }
      : null,
    created_at: formatTimestamp(event.created_at),
  };
}
