export * from './environment';
export * from './environment.module';
export * from './public-url';
export * from './key-ring';
