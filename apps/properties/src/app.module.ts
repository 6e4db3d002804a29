import { Module } from '@nestjs/common';
import { EnvironmentModule } from '@app/config';
import { PROPERTIES, QUEUES } from '@app/contracts';
import { EventsModule } from '@app/events';
import { NotificationNotices } from '@app/messaging';
import { DatabaseModule } from '@app/persistence';
import { ServiceOperationsModule } from '@app/runtime';
import { PropertiesEnvironment } from './config/properties.environment';
import { FloorPlansMessageController } from './floor-plans/floor-plans.message.controller';
import { FloorPlansService } from './floor-plans/floor-plans.service';
import { FormPagesMessageController } from './form-pages/form-pages.message.controller';
import { FormPresetsMessageController } from './form-presets/form-presets.message.controller';
import { FormPresetsRepository } from './form-presets/form-presets.repository';
import { FormPresetsService } from './form-presets/form-presets.service';
import { InvitationsMessageController } from './invitations/invitations.message.controller';
import { InvitationsRepository } from './invitations/invitations.repository';
import { InvitationsService } from './invitations/invitations.service';
import { ClientDefaults } from './properties/client-defaults';
import { PropertiesMessageController } from './properties/properties.message.controller';
import { PropertiesRepository } from './properties/properties.repository';
import { PropertiesService } from './properties/properties.service';

@Module({
  imports: [
    EnvironmentModule.forRoot(PropertiesEnvironment),
    DatabaseModule.forService(QUEUES.PROPERTIES),
    EventsModule.forService(),
    ServiceOperationsModule.forService(QUEUES.PROPERTIES, PROPERTIES.PING),
  ],
  controllers: [
    PropertiesMessageController,
    FloorPlansMessageController,
    InvitationsMessageController,
    FormPresetsMessageController,
    FormPagesMessageController,
  ],
  providers: [
    PropertiesRepository,
    PropertiesService,
    FloorPlansService,
    InvitationsRepository,
    InvitationsService,
    FormPresetsRepository,
    FormPresetsService,
    NotificationNotices,
    { provide: ClientDefaults, inject: [PropertiesEnvironment], useFactory: ClientDefaults.fromEnvironment },
  ],
})
export class AppModule {}
