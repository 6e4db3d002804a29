import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { environmentValidator, IdAllocator, publicBase } from '@app/common';
import { QUEUES, queueName } from '@app/contracts';
import { PropertiesEnvironment } from './config/properties.environment';
import { ClientDefaults } from './properties/client-defaults';
import { PropertiesMessageController } from './properties/properties.message.controller';
import { PropertiesRepository } from './properties/properties.repository';
import { PropertiesService, PUBLIC_BASE_URL } from './properties/properties.service';
import { PropertyRecord, PropertySchema } from './properties/property.schema';

type Config = ConfigService<PropertiesEnvironment, true>;

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      validate: environmentValidator(PropertiesEnvironment),
    }),
    MongooseModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: Config) => ({
        uri: config.get('MONGODB_URI'),
        dbName: queueName(config.get('NAMESPACE'), QUEUES.PROPERTIES),
        autoIndex: false,
        autoCreate: false,
        serverSelectionTimeoutMS: 5000,
      }),
    }),
    MongooseModule.forFeature([{ name: PropertyRecord.name, schema: PropertySchema }]),
  ],
  controllers: [PropertiesMessageController],
  providers: [
    PropertiesRepository,
    PropertiesService,
    {
      provide: IdAllocator,
      inject: [getConnectionToken()],
      useFactory: (connection: Connection) => new IdAllocator(connection),
    },
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
    {
      provide: PUBLIC_BASE_URL,
      inject: [ConfigService],
      useFactory: (config: Config) => publicBase(config.get('PUBLIC_BASE_URL')),
    },
  ],
})
export class AppModule {}
