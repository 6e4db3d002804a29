export * from './rmq-options';
export * from './rpc';
export * from './queue-client';
export * from './settlement';
export * from './settlement.interceptor';
export * from './reliable-server';
export * from './rpc-error.filter';
export * from './broker-channel';
