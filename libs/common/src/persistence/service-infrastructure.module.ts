import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { queueName } from '@app/contracts';
import { environmentValidator, ServiceEnvironment } from '../config/environment';
import { publicBase } from '../config/service-runtime';
import { IdAllocator } from './id-allocator';
import { Idempotency } from './idempotency';

/** Injection token of PUBLIC_BASE_URL without its trailing slash. */
export const PUBLIC_BASE_URL = Symbol('PUBLIC_BASE_URL');

/**
 * What every microservice stands on: its environment read and validated once, its own database
 * (named after the service, with the NAMESPACE prefix) with indexes created by the repositories
 * rather than by mongoose, the id allocator, idempotency, and the public base URL.
 */
@Module({})
export class ServiceInfrastructureModule {
  static forService(environment: new () => ServiceEnvironment, service: string): DynamicModule {
    return {
      module: ServiceInfrastructureModule,
      global: true,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: environmentValidator(environment) }),
        MongooseModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<ServiceEnvironment, true>) => ({
            uri: config.get('MONGODB_URI'),
            dbName: queueName(config.get('NAMESPACE'), service),
            autoIndex: false,
            autoCreate: false,
            serverSelectionTimeoutMS: 5000,
          }),
        }),
      ],
      providers: [
        {
          provide: IdAllocator,
          inject: [getConnectionToken()],
          useFactory: (connection: Connection) => new IdAllocator(connection),
        },
        {
          provide: Idempotency,
          inject: [getConnectionToken()],
          useFactory: (connection: Connection) => new Idempotency(connection),
        },
        {
          provide: PUBLIC_BASE_URL,
          inject: [ConfigService],
          useFactory: (config: ConfigService<ServiceEnvironment, true>) => publicBase(config.get('PUBLIC_BASE_URL')),
        },
      ],
      exports: [IdAllocator, Idempotency, PUBLIC_BASE_URL],
    };
  }
}
