export * from './http-drain';
export * from './run-service';
export * from './service-operations.module';
