import { randomBytes } from 'node:crypto';
import { ApplicantSealer, FieldCipher } from '@app/crypto';
import { EventOutbox } from '@app/events';
import { BodyFingerprints, Idempotency } from '@app/persistence';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { PropertiesClient } from '../clients/properties.client';
import { ApplicationsEnvironment } from '../config/applications.environment';
import { ApplicantFormsRepository } from '../store/applicant-forms.repository';
import { ApplicationLists } from '../store/application-lists';
import { ApplicationsRepository } from '../store/applications.repository';
import { FormSubmissionsRepository } from '../store/form-submissions.repository';
import { ApplicantDocumentsRepository } from '../store/applicant-documents.repository';
import { DocumentStorageRepository } from '../store/document-storage.repository';
import { ApplicationChangesService } from './application-changes.service';
import { ApplicationFormsService } from './application-forms.service';
import { ApplicationReadsService } from './application-reads.service';
import { ApplicationViews } from './application-views';
import { ApplicationsService } from './applications.service';
import { DecisionsService } from './decisions.service';
import { FormSubjects } from './form-subjects';
import { FormSubmissionsService } from './form-submissions.service';
import { UnsubmittedUploads } from './unsubmitted-uploads';
import { FormTokens } from './form-tokens';

export const FIELD_KEYS = `k1:${randomBytes(32).toString('base64')}`;
export const LINK_KEYS = `l1:${randomBytes(32).toString('base64')}`;
export const env = Object.assign(new ApplicationsEnvironment(), {
  FIELD_ENCRYPTION_KEYS: FIELD_KEYS,
  FORM_LINK_KEYS: LINK_KEYS,
  FINGERPRINT_KEYS: FIELD_KEYS,
  PUBLIC_BASE_URL: 'https://api.example.com/',
  APPLY_BASE_URL: 'https://apply.example.com',
});

/**
 * The properties service as this one sees it over the broker (another process, so a stand-in):
 * ids below 100 are live until deleted; a property's floor plans are `floorPlans`.
 */
export class MemoryProperties {
  readonly deleted = new Set<number>();
  readonly floorPlans = new Map<number, Array<{ id: number; rent: number | null }>>();
  /** Runs once each lookup has read its answer: a delete landing just after it, say. */
  afterLookup: () => void = () => undefined;
  lookups = 0;

  async lookup(clientId: number, id: number) {
    this.lookups++;
    const answer = id < 100 && !this.deleted.has(id) ? { id, name: `P${clientId}:${id}` } : null;
    this.afterLookup();
    return answer;
  }

  async floorPlansOf(_clientId: number, id: number) {
    return id < 100 && !this.deleted.has(id) ? (this.floorPlans.get(id) ?? []) : null;
  }

  asClient(): PropertiesClient {
    return {
      lookup: (clientId: number, id: number) => this.lookup(clientId, id),
      floorPlans: (clientId: number, id: number) => this.floorPlansOf(clientId, id),
      floorPlanIds: async (clientId: number, id: number) =>
        (await this.floorPlansOf(clientId, id))?.map((plan) => plan.id) ?? null,
    } as unknown as PropertiesClient;
  }
}

/**
 * One applications service instance over a database in memory, made of the real repositories and
 * services, with its own memory (as a process has): several over one MemoryDatabase stand for
 * several instances. Requests without an Idempotency-Key are keyed by their message id, as the
 * real Idempotency does.
 */
export async function applicationsInstance(database = new MemoryDatabase(), properties = new MemoryProperties()) {
  const storage = new MemoryStorage(database);
  const connection = database.connection();
  const cipher = new FieldCipher(FIELD_KEYS);
  const outbox = new EventOutbox(connection);
  const lists = new ApplicationLists(storage);
  const repository = new ApplicationsRepository(storage, lists, outbox);
  const forms = new ApplicantFormsRepository(storage);
  const formTokens = new FormTokens(cipher, env);
  const propertiesClient = properties.asClient();
  const views = new ApplicationViews(forms, propertiesClient, formTokens, env);
  const idempotency = new Idempotency(connection, new BodyFingerprints(FIELD_KEYS));
  const sealer = new ApplicantSealer(cipher);
  const service = new ApplicationsService(repository, views, propertiesClient, idempotency, sealer, formTokens);
  const reads = new ApplicationReadsService(repository, lists, forms, views);
  const subjects = new FormSubjects(repository, forms);
  const submissions = new FormSubmissionsService(new FormSubmissionsRepository(storage), subjects, formTokens);
  const documents = new ApplicantDocumentsRepository(storage, connection, cipher, outbox);
  const documentStorage = new DocumentStorageRepository(storage);
  const uploads = new UnsubmittedUploads(documents, documentStorage);
  const formSteps = new ApplicationFormsService(service, repository, forms, subjects, formTokens, sealer, outbox, uploads);
  const changes = new ApplicationChangesService(repository, views, propertiesClient);
  const decisions = new DecisionsService(repository, views, idempotency, subjects);
  // As at boot: the collections and their unique indexes.
  await repository.onModuleInit();
  await forms.onModuleInit();
  await documentStorage.onModuleInit();
  return {
    database,
    storage,
    properties,
    cipher,
    outbox,
    lists,
    repository,
    forms,
    formTokens,
    views,
    sealer,
    service,
    reads,
    subjects,
    submissions,
    formSteps,
    documents,
    documentStorage,
    changes,
    decisions,
  };
}

export type ApplicationsInstance = Awaited<ReturnType<typeof applicationsInstance>>;

let messages = 0;
/** A request's scope: a message of its own, with no Idempotency-Key. */
export const scope = () => ({ messageId: `m${++messages}` });
