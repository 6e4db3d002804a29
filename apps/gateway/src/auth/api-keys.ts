import { createHash } from 'node:crypto';

/**
 * The configured API keys, held only as SHA-256 digests. A presented key is digested and looked
 * up by digest, so neither the lookup's timing nor a memory dump reveals a key.
 */
export class ApiKeys {
  private readonly clients = new Map<string, number>();

  constructor(config: string) {
    for (const pair of config.split(',').filter(Boolean)) {
      const separator = pair.lastIndexOf(':');
      const clientId = Number(pair.slice(separator + 1));
      if (!Number.isSafeInteger(clientId) || clientId < 1) {
        throw new Error('API_KEYS: every client_id must be a positive integer');
      }
      this.clients.set(digest(pair.slice(0, separator)), clientId);
    }
  }

  /** The client account a key belongs to, or null. */
  clientFor(key: string): number | null {
    return this.clients.get(digest(key)) ?? null;
  }
}

function digest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
