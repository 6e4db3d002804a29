import { DynamicModule, Module } from '@nestjs/common';
import { getConnectionToken, MongooseModule } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { ServiceEnvironment } from '@app/config';
import { queueName } from '@app/contracts';
import { countDbCommand, traceDatabaseCommands } from '@app/observability';
import { IdAllocator } from './id-allocator';
import { BodyFingerprints, Idempotency } from './idempotency';
import { boundOperationsByDeadline } from './operation-timeout';

/** Counts every command the driver sends on `connection` (its command monitoring must be on). */
function countCommands(connection: Connection): void {
  connection.getClient().on('commandStarted', (event) => countDbCommand(event.commandName));
}

/**
 * A service's own database on MONGODB_URI, named after the service with the NAMESPACE prefix.
 * Indexes are created by the repositories (RecordRepository), not by mongoose. Also provides
 * the id allocator and idempotency claims, which live in the same database. Every operation
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
        { provide: IdAllocator, inject: [getConnectionToken()], useFactory: (c: Connection) => new IdAllocator(c) },
        {
          provide: Idempotency,
          inject: [getConnectionToken(), ServiceEnvironment],
          useFactory: (c: Connection, env: ServiceEnvironment) => new Idempotency(c, new BodyFingerprints(env.FINGERPRINT_KEYS)),
        },
      ],
      exports: [IdAllocator, Idempotency],
    };
  }
}
