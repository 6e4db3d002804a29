export * from './event-outbox';
export * from './event-relay';
export * from './events.module';
