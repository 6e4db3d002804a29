import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClientsModule } from '@nestjs/microservices';
import { MongooseModule } from '@nestjs/mongoose';
import { FIELD_CIPHER_PROVIDERS, rmqClientOptions, ServiceInfrastructureModule, ServiceOperationsModule } from '@app/common';
import { APPLICATIONS, QUEUES, queueName } from '@app/contracts';
import { ApplicationRecord, ApplicationSchema } from './applications/application.schema';
import { ApplicationsMessageController } from './applications/applications.message.controller';
import { ApplicationsRepository } from './applications/applications.repository';
import { ApplicationsService } from './applications/applications.service';
import {
  PROPERTIES_QUEUE_CLIENT,
  PropertiesClient,
  PROPERTY_LOOKUP_TIMEOUT_MS,
} from './applications/properties.client';
import { ApplicationsEnvironment } from './config/applications.environment';

type Config = ConfigService<ApplicationsEnvironment, true>;

@Module({
  imports: [
    ServiceInfrastructureModule.forService(ApplicationsEnvironment, QUEUES.APPLICATIONS),
    ServiceOperationsModule.forService(QUEUES.APPLICATIONS, APPLICATIONS.PING),
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
    ...FIELD_CIPHER_PROVIDERS,
    ApplicationsRepository,
    ApplicationsService,
    PropertiesClient,
    {
      provide: PROPERTY_LOOKUP_TIMEOUT_MS,
      inject: [ConfigService],
      useFactory: (config: Config) => config.get('PROPERTY_LOOKUP_TIMEOUT_MS'),
    },
  ],
})
export class AppModule {}
