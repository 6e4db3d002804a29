import { IsOptional, Matches } from 'class-validator';
import {
  CommonEnvironment,
  DerivedDefaults,
  isAddressList,
  isIntegerInRange,
  isMongoUri,
  isPort,
  isRedisUrl,
  isTimeout,
} from '@app/config';
import { isFieldEncryptionKeys } from '@app/crypto';

const API_KEY_ENTRY = '[A-Za-z0-9._~+/=-]{8,256}:\\d{1,15}(:\\d{1,7}:\\d{1,7})?';
const API_KEYS = new RegExp(`^(${API_KEY_ENTRY})?(,${API_KEY_ENTRY})*$`);
const API_KEY_SCOPE_ENTRY = '[A-Za-z0-9._~+/=-]{8,256}:(sensitive_data|personal_data_erasure)';
const API_KEY_SCOPES = new RegExp(`^(${API_KEY_SCOPE_ENTRY})?(,${API_KEY_SCOPE_ENTRY})*$`);

/** A whole number of requests. */
const isRate = (name: string) => isIntegerInRange(name, 1, 1_000_000);

export class GatewayEnvironment extends CommonEnvironment implements DerivedDefaults {
  @isPort('PORT')
  PORT: number = 3000;

  /** Port of the operators' listener: /health/live, /health/ready, /metrics. 0 takes any free port. */
  @isPort('HTTP_PORT', { allowZero: true })
  HTTP_PORT: number = 3010;

  /**
   * The callers whose trace a request continues, sampled or not as they decided, as addresses or
   * CIDR networks of the peer, comma separated: your own services that call this app directly.
   * Anyone else's `traceparent` starts a trace of the app's own, linked to it; unset, no caller's.
   */
  @isAddressList('TRACE_TRUSTED_CALLERS')
  TRACE_TRUSTED_CALLERS?: string;

  /**
   * `key:client_id` entries, comma separated, each optionally with its own rate limit:
   * `key:client_id:per_second:burst`. Without any, every request is refused.
   */
  @Matches(API_KEYS, {
    message:
      'API_KEYS must be key:client_id or key:client_id:per_second:burst entries, comma separated ' +
      '(keys of 8 to 256 URL-safe characters)',
  })
  API_KEYS: string = '';

  /**
   * `key:scope` entries, comma separated, a key listed once per scope: the keys (listed in
   * API_KEYS) that may read applicants' sensitive data (`sensitive_data`), or erase their personal
   * data and change how long it is kept (`personal_data_erasure`).
   */
  @Matches(API_KEY_SCOPES, {
    message: 'API_KEY_SCOPES must be key:sensitive_data or key:personal_data_erasure entries, comma separated',
  })
  API_KEY_SCOPES: string = '';

  /** Requests per second each API key may make, sustained... */
  @isRate('RATE_LIMIT_PER_SECOND')
  RATE_LIMIT_PER_SECOND: number = 50;

  /** ...and how many it may make at once. */
  @isRate('RATE_LIMIT_BURST')
  RATE_LIMIT_BURST: number = 100;

  /**
   * Webhook test events and redeliveries each API key may ask for per minute (and at once),
   * besides its rate limit: each makes the service send a request to a receiver.
   */
  @isIntegerInRange('WEBHOOK_SENDS_PER_MINUTE', 1, 100_000)
  WEBHOOK_SENDS_PER_MINUTE: number = 10;

  /** Requests per second one client address may make without a valid API key, sustained... */
  @isRate('RATE_LIMIT_UNAUTHENTICATED_PER_SECOND')
  RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: number = 5;

  /** ...and how many at once. */
  @isRate('RATE_LIMIT_UNAUTHENTICATED_BURST')
  RATE_LIMIT_UNAUTHENTICATED_BURST: number = 20;

  /** Open connections the API port holds at most; one more is closed at once. */
  @isIntegerInRange('MAX_CONNECTIONS', 1, 1_000_000)
  MAX_CONNECTIONS: number = 1000;

  /** When set, gateways share each key's limit through this Redis; otherwise it is per gateway. */
  @isRedisUrl()
  REDIS_URL?: string;

  /** Origins allowed to call the API from a browser, comma separated; none when unset. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s,/]+(,https?:\/\/[^\s,/]+)*$/, {
    message: 'CORS_ORIGINS must be origins such as https://app.example.com, comma separated',
  })
  CORS_ORIGINS?: string;

  /**
   * Worker threads that lay out summary PDFs, each one at a time, off the event loop that serves
   * the API; each has a heap of its own (a maximal application's PDF takes about 80 MB of it).
   */
  @isIntegerInRange('SUMMARY_PDF_WORKERS', 1, 16)
  SUMMARY_PDF_WORKERS: number = 1;

  /** Summary PDFs that may wait for a worker; one more is a 503 with Retry-After. */
  @isIntegerInRange('SUMMARY_PDF_QUEUE', 0, 1000)
  SUMMARY_PDF_QUEUE: number = 8;

  /** How long the gateway waits for a service's answer before giving 503. */
  @isTimeout('RPC_TIMEOUT_MS')
  RPC_TIMEOUT_MS: number = 5000;

  /** `id:base64key` entries: the first seals applicants' id_number and dob, every one opens them. */
  @isFieldEncryptionKeys()
  FIELD_ENCRYPTION_KEYS: string;

  /**
   * The MongoDB server of the applications service: its documents bucket (GridFS), which
   * applicants' uploads stream into and downloads stream out of, without crossing the broker.
   */
  @isMongoUri()
  MONGODB_URI: string = 'mongodb://localhost:27017';

  /** Unset, the base of the URLs the API returns is this gateway on its own port. */
  deriveDefaults(given: ReadonlySet<string>): void {
    if (!given.has('PUBLIC_BASE_URL')) this.PUBLIC_BASE_URL = `http://localhost:${this.PORT}`;
  }
}
