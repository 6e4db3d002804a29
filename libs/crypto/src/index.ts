export * from './field-cipher';
export * from './field-cipher.providers';
export * from './field-encryption-keys';
export * from './applicant-sealer';
export * from './form-token-digest';
export * from './form-link-tokens';
export * from './form-sealing';
export * from './form-sealing-keys';
