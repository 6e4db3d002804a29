import { Module } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { EnvironmentModule } from '@app/config';
import { APPLICATIONS, QUEUES } from '@app/contracts';
import { FieldCipher, fieldCipherProviders, formOpenerProviders } from '@app/crypto';
import { DocumentVault } from '@app/documents';
import { queueClients } from '@app/messaging';
import { EventsModule } from '@app/events';
import { DatabaseModule } from '@app/persistence';
import { ServiceOperationsModule } from '@app/runtime';
import { PropertiesClient } from './clients/properties.client';
import { ApplicationsEnvironment } from './config/applications.environment';
import { ApplicantDocumentsRepository } from './store/applicant-documents.repository';
import { ApplicantFormsRepository } from './store/applicant-forms.repository';
import { ApplicationLists } from './store/application-lists';
import { ApplicationsRepository } from './store/applications.repository';
import { AuditEventsRepository } from './store/audit-events.repository';
import { DocumentStorageRepository } from './store/document-storage.repository';
import { ErasuresRepository } from './store/erasures.repository';
import { FormSubmissionsRepository } from './store/form-submissions.repository';
import { RetentionSettingsRepository } from './store/retention-settings.repository';
import { ApplicantFiles } from './use-cases/applicant-files';
import { ApplicantsService } from './use-cases/applicants.service';
import { ApplicationChangesService } from './use-cases/application-changes.service';
import { ApplicationFormsService } from './use-cases/application-forms.service';
import { ApplicationReadsService } from './use-cases/application-reads.service';
import { ApplicationViews } from './use-cases/application-views';
import { ApplicationsService } from './use-cases/applications.service';
import { DecisionsService } from './use-cases/decisions.service';
import { DocumentsService } from './use-cases/documents.service';
import { FormSubjects } from './use-cases/form-subjects';
import { FormSubmissionsService } from './use-cases/form-submissions.service';
import { FormTokens } from './use-cases/form-tokens';
import { PersonalDataErasure } from './use-cases/personal-data-erasure';
import { PersonalDataRetention } from './use-cases/personal-data-retention';
import { RetentionSettings } from './use-cases/retention-settings';
import { UnrecordedUploads } from './use-cases/unrecorded-uploads';
import { UnsubmittedUploads } from './use-cases/unsubmitted-uploads';
import { ApplicantsMessageController } from './transport/applicants.message.controller';
import { ApplicationChangesMessageController } from './transport/application-changes.message.controller';
import { ApplicationFormsMessageController } from './transport/application-forms.message.controller';
import { ApplicationsMessageController } from './transport/applications.message.controller';
import { DecisionsMessageController } from './transport/decisions.message.controller';
import { DocumentsMessageController } from './transport/documents.message.controller';
import { PersonalDataMessageController } from './transport/personal-data.message.controller';

/**
 * The applications service, in layers whose imports point down only: transport (the message
 * controllers), use cases (the services), store (its repositories, made of the persistence
 * blocks) and clients (the properties service), domain (pure functions and types).
 */
@Module({
  imports: [
    EnvironmentModule.forRoot(ApplicationsEnvironment),
    DatabaseModule.forService(QUEUES.APPLICATIONS),
    EventsModule.forService(),
    ServiceOperationsModule.forService(QUEUES.APPLICATIONS, APPLICATIONS.PING),
    queueClients(QUEUES.PROPERTIES),
  ],
  controllers: [
    ApplicationsMessageController,
    ApplicationFormsMessageController,
    ApplicationChangesMessageController,
    ApplicantsMessageController,
    DocumentsMessageController,
    DecisionsMessageController,
    PersonalDataMessageController,
  ],
  providers: [
    ...fieldCipherProviders(ApplicationsEnvironment),
    ...formOpenerProviders(ApplicationsEnvironment),
    PropertiesClient,
    ApplicationsRepository,
    ApplicationLists,
    ApplicantFormsRepository,
    FormSubmissionsRepository,
    ApplicantDocumentsRepository,
    DocumentStorageRepository,
    AuditEventsRepository,
    RetentionSettingsRepository,
    ErasuresRepository,
    FormTokens,
    ApplicationViews,
    FormSubjects,
    FormSubmissionsService,
    ApplicationsService,
    ApplicationReadsService,
    ApplicationChangesService,
    ApplicationFormsService,
    ApplicantsService,
    DecisionsService,
    DocumentsService,
    ApplicantFiles,
    UnrecordedUploads,
    UnsubmittedUploads,
    PersonalDataErasure,
    PersonalDataRetention,
    RetentionSettings,
    {
      provide: DocumentVault,
      inject: [getConnectionToken(), FieldCipher],
      // The documents bucket is in this service's own database: its connection, not a second one.
      useFactory: (connection: Connection, cipher: FieldCipher) =>
        new DocumentVault(connection.getClient().db(connection.name), cipher),
    },
  ],
})
export class AppModule {}
