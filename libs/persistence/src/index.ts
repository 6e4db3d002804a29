export * from './database.module';
export * from './id-allocator';
export * from './idempotency';
export * from './mongo-errors';
export * from './record-repository';
export * from './claim-batches';
export * from './operation-timeout';
export * from './background-purge';
