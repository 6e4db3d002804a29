import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { ClientsModule } from '@nestjs/microservices';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { environmentValidator, IdAllocator, publicBase, rmqClientOptions } from '@app/common';
import { QUEUES, queueName } from '@app/contracts';
import { ApplicationRecord, ApplicationSchema } from './applications/application.schema';
import { ApplicationsMessageController } from './applications/applications.message.controller';
import { ApplicationsRepository } from './applications/applications.repository';
import { ApplicationsService, PUBLIC_BASE_URL } from './applications/applications.service';
import {
  PROPERTIES_QUEUE_CLIENT,
  PropertiesClient,
  PROPERTY_LOOKUP_TIMEOUT_MS,
} from './applications/properties.client';
import { ApplicationsEnvironment } from './config/applications.environment';

type Config = ConfigService<ApplicationsEnvironment, true>;

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: true,
      validate: environmentValidator(ApplicationsEnvironment),
    }),
    MongooseModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: Config) => ({
        uri: config.get('MONGODB_URI'),
        dbName: queueName(config.get('NAMESPACE'), QUEUES.APPLICATIONS),
        autoIndex: false,
        autoCreate: false,
        serverSelectionTimeoutMS: 5000,
      }),
    }),
    MongooseModule.forFeature([{ name: ApplicationRecord.name, schema: ApplicationSchema }]),
    ClientsModule.registerAsync([
      {
        name: PROPERTIES_QUEUE_CLIENT,
        inject: [ConfigService],
        useFactory: (config: Config) =>
          rmqClientOptions({
            url: config.get('AMQP_URL'),
            queue: queueName(config.get('NAMESPACE'), QUEUES.PROPERTIES),
          }),
      },
    ]),
  ],
  controllers: [ApplicationsMessageController],
  providers: [
    ApplicationsRepository,
    ApplicationsService,
    PropertiesClient,
    {
      provide: IdAllocator,
      inject: [getConnectionToken()],
      useFactory: (connection: Connection) => new IdAllocator(connection),
    },
    {
      provide: PROPERTY_LOOKUP_TIMEOUT_MS,
      inject: [ConfigService],
      useFactory: (config: Config) => config.get('PROPERTY_LOOKUP_TIMEOUT_MS'),
    },
    {
      provide: PUBLIC_BASE_URL,
      inject: [ConfigService],
      useFactory: (config: Config) => publicBase(config.get('PUBLIC_BASE_URL')),
    },
  ],
})
export class AppModule {}
