import { Module } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { EnvironmentModule } from '@app/config';
import { APPLICATIONS, QUEUES } from '@app/contracts';
import { FieldCipher, fieldCipherProviders, formOpenerProviders } from '@app/crypto';
import { DocumentVault } from '@app/documents';
import { queueClients } from '@app/messaging';
import { EventsModule } from '@app/events';
import { DatabaseModule } from '@app/persistence';
import { ServiceOperationsModule } from '@app/runtime';
import { ApplicantsMessageController } from './applicants/applicants.message.controller';
import { ApplicantsService } from './applicants/applicants.service';
import { ApplicantForms } from './applications/applicant-forms';
import { ApplicationFormsMessageController } from './applications/application-forms.message.controller';
import { ApplicationChangesMessageController } from './applications/application-changes.message.controller';
import { ApplicationChangesService } from './applications/application-changes.service';
import { ApplicationFormsService } from './applications/application-forms.service';
import { ApplicationIndex } from './applications/application-index';
import { ApplicationVersions } from './applications/application-versions';
import { ApplicationRecord, ApplicationSchema } from './applications/application.schema';
import { ApplicationsMessageController } from './applications/applications.message.controller';
import { ApplicationsRepository } from './applications/applications.repository';
import { ApplicationsService } from './applications/applications.service';
import { FormTokens } from './applications/form-tokens';
import { PropertiesClient } from './applications/properties.client';
import { AuditEvents } from './audit/audit-events';
import { ApplicationsEnvironment } from './config/applications.environment';
import { ApplicantDocuments } from './documents/applicant-documents';
import { UnrecordedUploads } from './documents/unrecorded-uploads';
import { DocumentStorage } from './documents/document-storage';
import { ApplicantFiles } from './documents/applicant-files';
import { DocumentsMessageController } from './documents/documents.message.controller';
import { DocumentsService } from './documents/documents.service';
import { DecisionsMessageController } from './decisions/decisions.message.controller';
import { DecisionsService } from './decisions/decisions.service';
import { PersonalDataErasure } from './personal-data/personal-data-erasure';
import { PersonalDataMessageController } from './personal-data/personal-data.message.controller';
import { PersonalDataRetention } from './personal-data/personal-data-retention';
import { RetentionSettings } from './personal-data/retention-settings';

@Module({
  imports: [
    EnvironmentModule.forRoot(ApplicationsEnvironment),
    DatabaseModule.forService(QUEUES.APPLICATIONS),
    EventsModule.forService(),
    ServiceOperationsModule.forService(QUEUES.APPLICATIONS, APPLICATIONS.PING),
    MongooseModule.forFeature([{ name: ApplicationRecord.name, schema: ApplicationSchema }]),
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
    ApplicationsRepository,
    ApplicationVersions,
    ApplicationIndex,
    FormTokens,
    ApplicantForms,
    ApplicationChangesService,
    ApplicationFormsService,
    ApplicationsService,
    PropertiesClient,
    ApplicantsService,
    AuditEvents,
    ApplicantDocuments,
    DocumentsService,
    DocumentStorage,
    ApplicantFiles,
    UnrecordedUploads,
    DecisionsService,
    RetentionSettings,
    PersonalDataErasure,
    PersonalDataRetention,
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
