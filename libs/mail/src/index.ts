export * from './templates';
export * from './previews';
