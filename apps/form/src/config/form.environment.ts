import { Matches, ValidateBy } from 'class-validator';
import {
  CommonEnvironment,
  DerivedDefaults,
  HTTP_URL,
  isAddressList,
  isIntegerInRange,
  isKeyRing,
  isMongoUri,
  isPort,
  isRedisUrl,
  isTimeout,
} from '@app/config';
import { isFormLinkKeys, isFormSealingPublicKey } from '@app/crypto';

/** A year: what browsers are told to keep to https once they saw the form over it. */
const HSTS_DEFAULT_SECONDS = 365 * 24 * 60 * 60;

export class FormEnvironment extends CommonEnvironment implements DerivedDefaults {
  /** `production` (as the image sets it) makes the form refuse to be framed by any site, and send HSTS. */
  NODE_ENV: string = 'development';

  /**
   * Where applicants reach the form. Not PORT, which names the gateway's: a local run passes one
   * environment to every app.
   */
  @isPort('FORM_PORT')
  FORM_PORT: number = 3003;

  /** Health and metrics, for operators only (0: any free port). */
  @isPort('HTTP_PORT', { allowZero: true })
  HTTP_PORT: number = 3004;

  /** Public base URL of the form, as application_url and form_url name it. */
  @Matches(HTTP_URL, { message: 'APPLY_BASE_URL must be an absolute http(s) URL' })
  APPLY_BASE_URL: string = 'http://localhost:3003';

  /**
   * Who may frame the `?iframe=true` pages: a CSP frame-ancestors source list. `*` (the default)
   * lets any site frame the SSN step, to trick applicants into typing it there: in production the
   * origins must be named.
   */
  @Matches(/^(\*|'self'|https?:\/\/[^\s;,']+)( (\*|'self'|https?:\/\/[^\s;,']+))*$/, {
    message: "APPLY_FRAME_ANCESTORS must be *, 'self' or origins such as https://landlord.example, space separated",
  })
  @ValidateBy({
    name: 'namedFrameAncestorsInProduction',
    validator: {
      validate: (value: unknown, args) =>
        (args?.object as FormEnvironment).NODE_ENV !== 'production' || !String(value).split(' ').includes('*'),
      defaultMessage: () =>
        "APPLY_FRAME_ANCESTORS must name the origins that may frame the form ('self' or origins such as " +
        'https://landlord.example, space separated) when NODE_ENV=production: unset or *, any site may frame it',
    },
  })
  APPLY_FRAME_ANCESTORS: string = '*';

  /**
   * Strict-Transport-Security's max-age on every answer of the form, in seconds; 0 sends none.
   * Unset: a year when NODE_ENV=production, none otherwise (a local form runs over plain http).
   */
  @isIntegerInRange('FORM_HSTS_MAX_AGE_SECONDS', 0, 2 * HSTS_DEFAULT_SECONDS)
  FORM_HSTS_MAX_AGE_SECONDS: number = 0;

  /** Form submissions (POSTs) one client address may make per minute (an IPv6 one by its /64; its /48, eight times as many). */
  @isIntegerInRange('FORM_RATE_LIMIT_PER_MINUTE', 1, 1_000_000)
  FORM_RATE_LIMIT_PER_MINUTE: number = 30;

  /**
   * Files one client address may upload per hour, whatever applicants they are for: each is at
   * most 10 MB, so this bounds what one address can store in an hour.
   */
  @isIntegerInRange('FORM_UPLOADS_PER_HOUR', 1, 1_000_000)
  FORM_UPLOADS_PER_HOUR: number = 24;

  /**
   * Requests of any kind (pages, GETs included) one client address may make per minute: counted
   * before any service is asked, so nobody can make the form look links up fast.
   */
  @isIntegerInRange('FORM_REQUEST_RATE_LIMIT_PER_MINUTE', 1, 1_000_000)
  FORM_REQUEST_RATE_LIMIT_PER_MINUTE: number = 120;

  /** When set, every form instance shares the limits above through this Redis; otherwise each counts alone. */
  @isRedisUrl()
  REDIS_URL?: string;

  /**
   * The load balancers and proxies in front of the form, as addresses or CIDR networks, comma
   * separated: a request from one of them counts against the address its X-Forwarded-For gives
   * (the last one no trusted proxy added); anyone else's X-Forwarded-For is ignored.
   */
  @isAddressList('TRUSTED_PROXIES')
  TRUSTED_PROXIES?: string;

  /**
   * The callers whose trace a request continues, sampled or not as they decided, as addresses or
   * CIDR networks of the peer, comma separated: your own services that call this app directly.
   * Anyone else's `traceparent` starts a trace of the app's own, linked to it; unset, no caller's.
   */
  @isAddressList('TRACE_TRUSTED_CALLERS')
  TRACE_TRUSTED_CALLERS?: string;

  /** How long an applicant's form link works after it was issued, in days. */
  @isIntegerInRange('FORM_LINK_LIFETIME_DAYS', 1, 3650)
  FORM_LINK_LIFETIME_DAYS: number = 30;

  /** How long the form waits for a service's answer before it shows "try again". */
  @isTimeout('RPC_TIMEOUT_MS')
  RPC_TIMEOUT_MS: number = 5000;

  /**
   * `id:base64key`: the public key of the first entry of the applications service's
   * FORM_SEALING_KEYS, which the SSN, date of birth and license number, and each uploaded
   * document's data key, are sealed to before they leave the process. It opens nothing: the form
   * holds no key that opens anything stored (it reads no FIELD_ENCRYPTION_KEYS).
   */
  @isFormSealingPublicKey()
  FORM_SEALING_PUBLIC_KEY: string;

  /**
   * `id:base64key` entries, keys of their own: the first signs the pages' CSRF tokens, every one
   * is accepted, so a new key put first leaves the pages open under the old one working.
   */
  @isKeyRing('CSRF_KEYS')
  CSRF_KEYS: string;

  /**
   * `id:base64key` entries, the applications service's FORM_LINK_KEYS: the MAC of an applicant's
   * link is checked against every one before any service is asked.
   */
  @isFormLinkKeys()
  FORM_LINK_KEYS: string;

  /**
   * The MongoDB server of the applications service: its documents bucket (GridFS), which
   * applicants' uploads stream into and downloads stream out of, without crossing the broker.
   */
  @isMongoUri()
  MONGODB_URI: string = 'mongodb://localhost:27017';

  deriveDefaults(given: ReadonlySet<string>): void {
    if (!given.has('FORM_HSTS_MAX_AGE_SECONDS') && this.NODE_ENV === 'production') {
      this.FORM_HSTS_MAX_AGE_SECONDS = HSTS_DEFAULT_SECONDS;
    }
  }
}
