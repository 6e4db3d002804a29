import { registerDecorator } from 'class-validator';
import { parseFieldEncryptionKeys } from './field-cipher';

/**
 * FIELD_ENCRYPTION_KEYS, required: `id:base64key` entries of 32-byte keys. The refusal names the
 * entry at fault and never quotes key material.
 */
export function isFieldEncryptionKeys(): PropertyDecorator {
  const refusal = (value: unknown): string | null => {
    try {
      parseFieldEncryptionKeys(typeof value === 'string' ? value : undefined);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'isFieldEncryptionKeys',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => refusal(value) === null,
        defaultMessage: (args) => refusal(args?.value) ?? '',
      },
    });
}
