import mongoose, { Connection } from 'mongoose';
import { connectionHarness, describeStorageContract } from '@app/persistence/storage-contract.testing';

/**
 * The storage blocks against the real database at MONGODB_URI (the run's FerretDB, unless set):
 * several instances are several connections, as several service processes are.
 */
const connections: Connection[] = [];

afterAll(async () => {
  const databases = new Set(connections.map((connection) => connection.name));
  if (connections[0]) for (const name of databases) await connections[0].useDb(name).dropDatabase();
  await Promise.all(connections.map((connection) => connection.close()));
});

describeStorageContract('the database at MONGODB_URI', () =>
  connectionHarness(async (database) => {
    const connection = mongoose.createConnection(process.env.MONGODB_URI!, {
      dbName: database,
      autoIndex: false,
      autoCreate: false,
    });
    connections.push(connection);
    return connection.asPromise();
  }),
);
