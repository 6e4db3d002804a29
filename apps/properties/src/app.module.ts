import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MongooseModule } from '@nestjs/mongoose';
import { ServiceInfrastructureModule, ServiceOperationsModule } from '@app/common';
import { PROPERTIES, QUEUES } from '@app/contracts';
import { PropertiesEnvironment } from './config/properties.environment';
import { ClientDefaults } from './properties/client-defaults';
import { PropertiesMessageController } from './properties/properties.message.controller';
import { PropertiesRepository } from './properties/properties.repository';
import { PropertiesService } from './properties/properties.service';
import { PropertyRecord, PropertySchema } from './properties/property.schema';

type Config = ConfigService<PropertiesEnvironment, true>;

@Module({
  imports: [
    ServiceInfrastructureModule.forService(PropertiesEnvironment, QUEUES.PROPERTIES),
    ServiceOperationsModule.forService(QUEUES.PROPERTIES, PROPERTIES.PING),
    MongooseModule.forFeature([{ name: PropertyRecord.name, schema: PropertySchema }]),
  ],
  controllers: [PropertiesMessageController],
  providers: [
    PropertiesRepository,
    PropertiesService,
    {
      provide: ClientDefaults,
      inject: [ConfigService],
      useFactory: (config: Config) =>
        new ClientDefaults(
          {
            form_preset_id: config.get('DEFAULT_FORM_PRESET_ID'),
            background_config_id: config.get('DEFAULT_BACKGROUND_CONFIG_ID'),
          },
          config.get('CLIENT_DEFAULTS'),
        ),
    },
  ],
})
export class AppModule {}
