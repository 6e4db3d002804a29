import { failingWrites, describeStorageContract } from './storage-contract.testing';
import { MemoryDatabase, MemoryStorage } from './memory-storage.testing';
import { ClaimStorage } from './claims/claim-storage';

describeStorageContract('the in-memory storage', () => {
  const database = new MemoryDatabase();
  return {
    instances: async (count) => Array.from({ length: count }, () => new MemoryStorage(database)),
    failingWritesTo: async (collection) => new ClaimStorage(failingWrites(database.connection(), collection)),
  };
});
