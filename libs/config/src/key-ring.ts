import { registerDecorator } from 'class-validator';

const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** One secret of a key ring, named by the id stored beside what it made. */
export interface RingKey {
  id: string;
  key: Buffer;
}

export function keyRingFormat(name: string): string {
  return (
    `${name} must be one or more id:base64key entries, comma separated, each key ${KEY_BYTES} bytes ` +
    '(e.g. k2025:$(openssl rand -base64 32)); the first is used for new values, all are accepted'
  );
}

/**
 * Reads the variable `name` as `id:base64key,id:base64key,...`: the form of every secret that is
 * rotated by putting a new key first. Throws an Error naming the variable and the entry at
 * fault, never quoting the key material.
 */
export function parseKeyRing(name: string, text: string | undefined): RingKey[] {
  if (!text) throw new Error(`${name} is not set. ${keyRingFormat(name)}`);
  const keys: RingKey[] = [];
  text.split(',').forEach((entry, index) => {
    const separator = entry.indexOf(':');
    const id = entry.slice(0, separator);
    const material = entry.slice(separator + 1);
    const where = `${name} entry ${index + 1}`;
    if (separator < 0 || !KEY_ID.test(id)) {
      throw new Error(`${where} must start with a key id of 1 to 32 letters, digits, _ or -, then ":"`);
    }
    const key = BASE64.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES) throw new Error(`${where} (key id ${id}) must be ${KEY_BYTES} bytes in base64`);
    if (keys.some((known) => known.id === id)) throw new Error(`${where}: key id ${id} is given twice`);
    keys.push({ id, key });
  });
  return keys;
}

/**
 * Reads the variable `name` as a single `id:base64key` entry of a 32-byte key: a public key, say,
 * that is replaced rather than rotated by listing. Throws an Error naming the variable, never
 * quoting the key material; `format` says what the value should be.
 */
export function parseSingleKey(name: string, text: string | undefined, format: string): RingKey {
  if (!text) throw new Error(`${name} is not set. ${format}`);
  if (text.includes(',')) throw new Error(`${name} must be a single entry. ${format}`);
  return parseKeyRing(name, text)[0];
}

/** A required key ring variable, validated at boot by parseKeyRing; the refusal quotes no key. */
export function isKeyRing(name: string): PropertyDecorator {
  return keyValidator(name, (value) => parseKeyRing(name, value));
}

/** A required single key variable, validated at boot by parseSingleKey; the refusal quotes no key. */
export function isSingleKey(name: string, format: string): PropertyDecorator {
  return keyValidator(name, (value) => parseSingleKey(name, value, format));
}

function keyValidator(name: string, parse: (value: string | undefined) => unknown): PropertyDecorator {
  const refusal = (value: unknown): string | null => {
    try {
      parse(typeof value === 'string' ? value : undefined);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };
  return (target: object, key: string | symbol) =>
    registerDecorator({
      name: 'isKeyRing',
      target: target.constructor,
      propertyName: key as string,
      validator: {
        validate: (value: unknown) => refusal(value) === null,
        defaultMessage: (args) => refusal(args?.value) ?? '',
      },
    });
}
