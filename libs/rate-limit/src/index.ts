export * from './address-bucket';
export * from './rate-limiter';
export * from './redis-token-buckets';
export * from './token-bucket';
