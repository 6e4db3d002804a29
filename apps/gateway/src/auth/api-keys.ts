import { createHash, timingSafeEqual } from 'node:crypto';
import { API_KEY_SCOPE_NAMES, ApiKeyScope } from '@app/contracts';
import { RateLimit } from '@app/rate-limit';

/** What a presented API key stands for. */
export interface ApiCredential {
  clientId: number;
  /** This key's own limit, or null for the configured default. */
  rateLimit: RateLimit | null;
  /** Names the key's rate-limit bucket without revealing the key. */
  bucket: string;
  /** Names the key in audit events without revealing it: the first 16 hex digits of its SHA-256. */
  keyId: string;
  /** What API_KEY_SCOPES grants the key beyond the client's resources. */
  scopes: readonly ApiKeyScope[];
}

interface StoredKey extends ApiCredential {
  digest: Buffer;
  scopes: ApiKeyScope[];
}

const ENTRY = /^([^:]+):(\d+)(?::(\d+):(\d+))?$/;

/**
 * The configured API keys (`key:client_id` or `key:client_id:per_second:burst`, comma
 * separated), held only as SHA-256 digests. A presented key is digested and compared with every
 * stored digest in constant time, so neither the timing of a lookup nor a memory dump reveals a
 * key.
 */
export class ApiKeys {
  private readonly keys: StoredKey[] = [];

  /** `config` is API_KEYS; `scopes` is API_KEY_SCOPES, `key:scope` entries for keys it lists. */
  constructor(config: string, scopes = '') {
    for (const entry of config.split(',').filter(Boolean)) {
      const match = ENTRY.exec(entry);
      const clientId = Number(match?.[2]);
      if (!match || !Number.isSafeInteger(clientId) || clientId < 1) {
        throw new Error(
          'API_KEYS: every entry must be key:client_id or key:client_id:per_second:burst, client_id a positive integer',
        );
      }
      const rateLimit = match[3] === undefined ? null : { perSecond: Number(match[3]), burst: Number(match[4]) };
      if (rateLimit && (rateLimit.perSecond < 1 || rateLimit.burst < 1)) {
        throw new Error('API_KEYS: a per-key rate and burst must be at least 1');
      }
      const digest = digestOf(match[1]);
      const listed = this.keys.findIndex((stored) => stored.digest.equals(digest));
      if (listed >= 0) {
        // Which client it stood for would hang on the order of the entries. Named by position: never the key.
        throw new Error(`API_KEYS: entries ${listed + 1} and ${this.keys.length + 1} are the same key; list each key once`);
      }
      const keyId = digest.subarray(0, 8).toString('hex');
      this.keys.push({ clientId, rateLimit, digest, bucket: `${clientId}.${keyId}`, keyId, scopes: [] });
    }
    this.grant(scopes);
  }

  private grant(config: string): void {
    for (const [index, entry] of config.split(',').filter(Boolean).entries()) {
      const separator = entry.lastIndexOf(':');
      const scope = entry.slice(separator + 1);
      // Named by position, never by the key.
      if (separator < 1 || !(API_KEY_SCOPE_NAMES as readonly string[]).includes(scope)) {
        throw new Error(
          `API_KEY_SCOPES: entry ${index + 1} must be key:scope, the scope one of ${API_KEY_SCOPE_NAMES.join(', ')}`,
        );
      }
      const digest = digestOf(entry.slice(0, separator));
      const key = this.keys.find((stored) => stored.digest.equals(digest));
      if (!key) throw new Error(`API_KEY_SCOPES: entry ${index + 1} names a key that API_KEYS does not list`);
      if (!key.scopes.includes(scope as ApiKeyScope)) key.scopes = [...key.scopes, scope as ApiKeyScope];
    }
  }

  /** What `key` stands for, or null; every stored digest is compared, whichever matches. */
  identify(key: string): ApiCredential | null {
    const presented = digestOf(key);
    let found: StoredKey | null = null;
    for (const stored of this.keys) {
      if (timingSafeEqual(stored.digest, presented)) found = stored;
    }
    return (
      found && {
        clientId: found.clientId,
        rateLimit: found.rateLimit,
        bucket: found.bucket,
        keyId: found.keyId,
        scopes: found.scopes,
      }
    );
  }
}

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
