import { DynamicModule, Module } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ServiceEnvironment } from '@app/config';
import { queueName } from '@app/contracts';
import { countDbCommand, traceDatabaseCommands } from '@app/observability';
import { ClaimStorage } from './claims/claim-storage';
import { IdAllocator } from './claims/id-allocator';
import { Storage } from './storage';
import { BodyFingerprints, Idempotency } from './idempotency';
import { boundOperationsByDeadline } from './operation-timeout';

/** Counts every command the driver sends on `connection` (its command monitoring must be on). */
function countCommands(connection: Connection): void {
  connection.getClient().on('commandStarted', (event) => countDbCommand(event.commandName));
}

/**
 * A service's own database on MONGODB_URI, named after the service with the NAMESPACE prefix.
 * Provides its Storage (the blocks every repository is made of), the id allocator and the
 * idempotency claims, which live in the same database; indexes are created by the blocks at
 * boot (`prepare`), not by mongoose. Every operation
 * made while a message is handled is bounded by the message's deadline (boundOperationsByDeadline),
 * and traced as a span of the sampled trace it is made in (traceDatabaseCommands).
 * With DB_COMMAND_METRICS=true the commands sent are counted in `db_commands_total`.
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
            traceDatabaseCommands();
            const counting = env.DB_COMMAND_METRICS === 'true';
            return {
              uri: env.MONGODB_URI,
              dbName: queueName(env.NAMESPACE, service),
              autoIndex: false,
              autoCreate: false,
              serverSelectionTimeoutMS: 5000,
              monitorCommands: counting,
              onConnectionCreate: counting ? countCommands : undefined,
            };
          },
        }),
      ],
      providers: [
        { provide: Storage, inject: [getConnectionToken()], useFactory: (c: Connection) => new ClaimStorage(c) },
        { provide: IdAllocator, inject: [Storage], useFactory: (storage: Storage) => storage.ids() as IdAllocator },
        {
          provide: Idempotency,
          inject: [getConnectionToken(), ServiceEnvironment],
          useFactory: (c: Connection, env: ServiceEnvironment) => new Idempotency(c, new BodyFingerprints(env.FINGERPRINT_KEYS)),
        },
      ],
      exports: [Storage, IdAllocator, Idempotency],
    };
  }
}
