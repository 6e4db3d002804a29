import { Injectable, OnApplicationShutdown, Provider } from '@nestjs/common';
import mongoose from 'mongoose';
import { queueName, QUEUES } from '@app/contracts';
import { FieldCipher, FormSealer } from '@app/crypto';
import { DocumentUploads, DocumentVault } from './document-vault';

/** An app's environment class that names the MongoDB server and the deployment's NAMESPACE. */
type WithDocumentsDatabase = new () => { MONGODB_URI: string; NAMESPACE: string };

/**
 * The connection to the applications service's database that the documents bucket lives in: the
 * only part of that database another app touches. Bytes stream through it instead of through the
 * broker; the records (who may have a document, how many) stay the applications service's.
 */
@Injectable()
export class DocumentsConnection implements OnApplicationShutdown {
  readonly connection: mongoose.Connection;
  readonly dbName: string;

  constructor(uri: string, namespace: string) {
    this.dbName = queueName(namespace, QUEUES.APPLICATIONS);
    this.connection = mongoose.createConnection(uri, {
      dbName: this.dbName,
      autoIndex: false,
      autoCreate: false,
      serverSelectionTimeoutMS: 5000,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}

function documentsConnectionProvider(environment: WithDocumentsDatabase): Provider {
  return {
    provide: DocumentsConnection,
    inject: [environment],
    useFactory: (env: { MONGODB_URI: string; NAMESPACE: string }) => new DocumentsConnection(env.MONGODB_URI, env.NAMESPACE),
  };
}

/** Where the form stores uploads, for an app that also provides FormSealer (formSealerProviders). */
export function documentUploadProviders(environment: WithDocumentsDatabase): Provider[] {
  return [
    documentsConnectionProvider(environment),
    {
      provide: DocumentUploads,
      inject: [DocumentsConnection, FormSealer],
      // Not awaiting the connection: the form starts (and serves its pages) while MongoDB is away.
      useFactory: (documents: DocumentsConnection, sealer: FormSealer) =>
        new DocumentUploads(documents.connection.getClient().db(documents.dbName), sealer),
    },
  ];
}

/** The vault of applicants' documents, for an app that also provides FieldCipher (fieldCipherProviders). */
export function documentVaultProviders(environment: WithDocumentsDatabase): Provider[] {
  return [
    documentsConnectionProvider(environment),
    {
      provide: DocumentVault,
      inject: [DocumentsConnection, FieldCipher],
      // Not awaiting the connection: an app starts (and answers what needs no documents) while MongoDB is away.
      useFactory: (documents: DocumentsConnection, cipher: FieldCipher) =>
        new DocumentVault(documents.connection.getClient().db(documents.dbName), cipher),
    },
  ];
}
