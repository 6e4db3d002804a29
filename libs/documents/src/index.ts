export * from './document-types';
export * from './document-inspector';
export * from './segment-cipher';
export * from './document-vault';
export * from './document-vault.providers';
