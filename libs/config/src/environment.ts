import { plainToInstance } from 'class-transformer';
import { isIP } from 'node:net';
import { IsIn, IsInt, IsOptional, Matches, Max, Min, ValidateBy, validateSync } from 'class-validator';
import { SENDER_ROLES } from '@app/contracts';
import { isKeyRing } from './key-ring';

/** One entry of TRUSTED_SENDERS: a sender role, and its broker user when that is another name. */
const TRUSTED_SENDER = `(${SENDER_ROLES.join('|')})(:[^,:\\s]+)?`;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `auto`: readable lines when stdout is a terminal, JSON otherwise. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * An environment class whose defaults depend on other variables implements this; the validator
 * calls it after reading the given values and before validating.
 */
export interface DerivedDefaults {
  /** Fills in the defaults of the variables not among `given`. */
  deriveDefaults(given: ReadonlySet<string>): void;
}

function hasDerivedDefaults(config: object): config is DerivedDefaults {
  return typeof (config as Partial<DerivedDefaults>).deriveDefaults === 'function';
}

/**
 * Builds the function that reads the environment into `type` (EnvironmentModule calls it once,
 * at boot). The class's initializers are the defaults of unset variables, and its declared types
 * drive the conversion from text, so each field states its type. A bad value stops the
 * process with a message naming the variable.
 */
export function environmentValidator<T extends object>(type: new () => T) {
  return (raw: Record<string, unknown>): T => {
    const present = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
    const config = plainToInstance(type, present, { enableImplicitConversion: true });
    if (hasDerivedDefaults(config)) config.deriveDefaults(new Set(Object.keys(present)));
    const errors = validateSync(config, { forbidUnknownValues: false });
    if (errors.length > 0) {
      const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
      throw new Error(`invalid configuration:\n  ${lines.join('\n  ')}`);
    }
    return config;
  };
}

const AMQP_URL = /^amqps?:\/\/\S+$/;
/** An absolute http(s) URL, as every public base URL must be. */
export const HTTP_URL = /^https?:\/\/[^\s/]+(\/\S*)?$/;
const MONGODB_URI = /^mongodb(\+srv)?:\/\/\S+$/;

/** MONGODB_URI, for the services and for the apps that reach the applications service's documents bucket. */
export function isMongoUri(): PropertyDecorator {
  return Matches(MONGODB_URI, { message: 'MONGODB_URI must be a mongodb:// or mongodb+srv:// URI' });
}

/** What every process reads. */
export class CommonEnvironment {
  @Matches(AMQP_URL, { message: 'AMQP_URL must be an amqp:// or amqps:// URL' })
  AMQP_URL: string = 'amqp://guest:guest@localhost:5672';

  /** Prefix of queue and database names, so that several stacks can share one broker and server. */
  @Matches(/^[A-Za-z0-9_-]{0,32}$/, { message: 'NAMESPACE must be up to 32 letters, digits, _ or -' })
  NAMESPACE: string = '';

  /**
   * The base of every absolute URL the API returns. A service cannot know the gateway's port, so
   * whoever starts it passes this on (the local run, docker-compose); the gateway's own default
   * follows its PORT.
   */
  @Matches(HTTP_URL, { message: 'PUBLIC_BASE_URL must be an absolute http(s) URL' })
  PUBLIC_BASE_URL: string = 'http://localhost:3000';

  /** The least severe level written to the log. */
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';
}

/** What each microservice reads besides the common part. */
export class ServiceEnvironment extends CommonEnvironment {
  @isMongoUri()
  MONGODB_URI: string = 'mongodb://localhost:27017';

  /** Messages one instance works on at once. */
  @IsInt({ message: 'RMQ_PREFETCH must be an integer' })
  @Min(1, { message: 'RMQ_PREFETCH must be at least 1' })
  @Max(1000, { message: 'RMQ_PREFETCH must be at most 1000' })
  RMQ_PREFETCH: number = 32;

  /** Pause between the event relay's passes over the outbox (milliseconds). */
  @isIntegerInRange('EVENT_RELAY_INTERVAL_MS', 50, 3600000)
  EVENT_RELAY_INTERVAL_MS: number = 1000;

  /**
   * An event recorded this long ago whose change never got written is dropped from the outbox:
   * far longer than any write takes, so that a slow write still gets its event published.
   */
  @isIntegerInRange('EVENT_DROP_AFTER_SECONDS', 1, 86400)
  EVENT_DROP_AFTER_SECONDS: number = 600;

  /**
   * Publish a change's events as soon as its write is done (`true`), or leave them to the
   * relay's next pass over the outbox (`false`: what a process killed right after its write
   * leaves behind, which the tests need to make on purpose).
   */
  @IsIn(['true', 'false'], { message: 'EVENT_RELAY_ON_WRITE must be true or false' })
  EVENT_RELAY_ON_WRITE: 'true' | 'false' = 'true';

  /**
   * Port of the service's own HTTP listener (health and metrics). Each service sets its own
   * default, so that a whole stack can run on one host; 0 takes any free port, for running
   * several instances side by side.
   */
  @isPort('HTTP_PORT', { allowZero: true })
  HTTP_PORT: number = 0;

  /**
   * `id:base64key` entries: the secret of the idempotency fingerprints (an HMAC of each keyed
   * request's body, which holds personal data). The first makes new fingerprints; a claim made
   * under a later one still matches, so a new key can be put first and the old one dropped once
   * claims made under it have expired (24 hours).
   */
  @isKeyRing('FINGERPRINT_KEYS')
  FINGERPRINT_KEYS: string;

  /**
   * Count the database commands the service sends, by name, in `db_commands_total` (the bench
   * reports them per request). Off by default: the driver's command monitoring costs an event
   * per command.
   */
  @IsIn(['true', 'false'], { message: 'DB_COMMAND_METRICS must be true or false' })
  DB_COMMAND_METRICS: 'true' | 'false' = 'false';

  /**
   * The apps whose messages the service takes, comma separated, each as its role (gateway, form,
   * applications, notifications) and, when its broker user has another name, `:user`: a message
   * must carry that user as its `user_id`, which RabbitMQ checks against the user that published
   * it, and its pattern must be one the role sends (PATTERN_SENDERS). Empty: every message is
   * taken (any user allowed to publish to the queue is trusted with every pattern).
   */
  @Matches(new RegExp(`^(${TRUSTED_SENDER}(,${TRUSTED_SENDER})*)?$`), {
    message: `TRUSTED_SENDERS must be roles (${SENDER_ROLES.join(', ')}), each with :user when its broker user has another name, comma separated`,
  })
  TRUSTED_SENDERS: string = '';

  /**
   * Broker users whose domain events (and the notices that go with them) a consumer of events
   * takes, comma separated: the services that publish them. Any other event is refused unworked,
   * so that no one else on the broker can make up an event for a client. Empty: every event is taken.
   */
  @Matches(/^([^,\s]+(,[^,\s]+)*)?$/, { message: 'EVENT_PUBLISHERS must be broker user names, comma separated' })
  EVENT_PUBLISHERS: string = '';

  get eventPublishers(): string[] {
    return this.EVENT_PUBLISHERS.split(',').filter(Boolean);
  }
}

/** A TCP port number, validated. */
export function isPort(name: string, { allowZero = false } = {}): PropertyDecorator {
  const lowest = allowZero ? 0 : 1;
  const range = `${name} must be an integer between ${lowest} and 65535`;
  return (target: object, key: string | symbol) => {
    IsInt({ message: range })(target, key);
    Min(lowest, { message: range })(target, key);
    Max(65535, { message: range })(target, key);
  };
}

/** An integer from `min` to `max`; `unit` completes "must be an integer ...". */
export function isIntegerInRange(name: string, min: number, max: number, unit = ''): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    IsInt({ message: `${name} must be an integer${unit}` })(target, key);
    Min(min, { message: `${name} must be at least ${min}` })(target, key);
    Max(max, { message: `${name} must be at most ${max}` })(target, key);
  };
}

/** Validated integer milliseconds, for the RPC deadlines. */
export function isTimeout(name: string): PropertyDecorator {
  return isIntegerInRange(name, 50, 120000, ' number of milliseconds');
}

/** REDIS_URL, optional: where the instances of an app share their rate limits. */
export function isRedisUrl(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    IsOptional()(target, key);
    Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })(target, key);
  };
}

/** Addresses and CIDR networks (`10.0.0.0/8`, `fd00::/8`), comma separated; optional. */
export function isAddressList(name: string): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    IsOptional()(target, key);
    ValidateBy({
      name: 'isAddressList',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.split(',').every(isAddressOrNetwork),
        defaultMessage: () => `${name} must be IP addresses or CIDR networks such as 10.0.0.0/8, comma separated`,
      },
    })(target, key);
  };
}

function isAddressOrNetwork(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
