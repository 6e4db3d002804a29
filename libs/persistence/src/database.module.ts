import { DynamicModule, Module } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ServiceEnvironment } from '@app/config';
import { queueName } from '@app/contracts';
import { IdAllocator } from './id-allocator';
import { Idempotency } from './idempotency';
import { boundOperationsByDeadline } from './operation-timeout';

/**
 * A service's own database on MONGODB_URI, named after the service with the NAMESPACE prefix.
 * Indexes are created by the repositories (RecordRepository), not by mongoose. Also provides
 * the id allocator and idempotency claims, which live in the same database. Every operation
 * made while a message is handled is bounded by the message's deadline (boundOperationsByDeadline).
 */
@Module({})
export class DatabaseModule {
  static forService(service: string): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        MongooseModule.forRootAsync({
          inject: [ServiceEnvironment],
          useFactory: (env: ServiceEnvironment) => {
            boundOperationsByDeadline();
            return {
              uri: env.MONGODB_URI,
              dbName: queueName(env.NAMESPACE, service),
              autoIndex: false,
              autoCreate: false,
              serverSelectionTimeoutMS: 5000,
            };
          },
        }),
      ],
      providers: [
        { provide: IdAllocator, inject: [getConnectionToken()], useFactory: (c: Connection) => new IdAllocator(c) },
        { provide: Idempotency, inject: [getConnectionToken()], useFactory: (c: Connection) => new Idempotency(c) },
      ],
      exports: [IdAllocator, Idempotency],
    };
  }
}
