import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { environmentValidator } from '@app/config';
import { deadLetterExchange, deadLetterQueue, requestExchange } from '@app/messaging';
import { ApplicationsEnvironment } from './apps/applications/src/config/applications.environment';
import { FormEnvironment } from './apps/form/src/config/form.environment';
import { NotificationsEnvironment } from './apps/notifications/src/config/notifications.environment';
import { WebhooksEnvironment } from './apps/webhooks/src/config/webhooks.environment';
import { GatewayEnvironment } from './apps/gateway/src/config/gateway.environment';
import { PropertiesEnvironment } from './apps/properties/src/config/properties.environment';

/**
 * docker-compose.yml, read as compose reads it (YAML merge keys included), since no Docker engine
 * runs here: what a newcomer's `docker compose up` depends on is checked property by property.
 */
const text = readFileSync(join(__dirname, 'docker-compose.yml'), 'utf8');
const compose = parse(text, { merge: true });
const services: Record<string, any> = compose.services;

const APPS: Record<string, { environment: new () => object; port: string }> = {
  gateway: { environment: GatewayEnvironment, port: 'HTTP_PORT' },
  properties: { environment: PropertiesEnvironment, port: 'HTTP_PORT' },
  applications: { environment: ApplicationsEnvironment, port: 'HTTP_PORT' },
  form: { environment: FormEnvironment, port: 'HTTP_PORT' },
  webhooks: { environment: WebhooksEnvironment, port: 'HTTP_PORT' },
  notifications: { environment: NotificationsEnvironment, port: 'HTTP_PORT' },
};
const apps = Object.keys(APPS);
/** The image a service runs when its variable is unset: `${REDIS_IMAGE:-redis:…}` names it last. */
const imageOf = (name: string): string => /^\$\{[A-Z_]+:-(.+)\}$/.exec(services[name].image)?.[1] ?? services[name].image;
const DIGEST = /@sha256:[0-9a-f]{64}$/;

describe('docker-compose.yml', () => {
  it('runs the broker, the database, the local inbox, Redis for the rate limits, Jaeger and the six apps', () => {
    expect(Object.keys(services).sort()).toEqual([
      'applications',
      'form',
      'gateway',
      'jaeger',
      'maildev',
      'mongodb',
      'notifications',
      'properties',
      'rabbitmq',
      'redis',
      'webhooks',
    ]);
  });

  it.each(Object.keys(services))('gives %s a healthcheck', (name) => {
    const { healthcheck } = services[name];
    expect(healthcheck.test[0]).toBe('CMD');
    expect(healthcheck).toMatchObject({ interval: expect.any(String), timeout: expect.any(String), retries: expect.any(Number) });
  });

  it.each(Object.keys(services))(
    'gives %s a health check whose arguments hold no space, which podman 4 would split at',
    (name) => {
      for (const argument of services[name].healthcheck.test)
        expect([name, argument]).toEqual([name, argument.replace(/\s/g, '')]);
    },
  );

  it.each(apps)('checks %s by its /health/ready, on the port it listens on', (app) => {
    const [, command, flag, script] = services[app].healthcheck.test;
    expect([command, flag]).toEqual(['node', '-e']);
    expect(script).toContain('/health/ready');
    expect(script).toContain(`process.env.${APPS[app].port}`);
    expect(services[app].environment[APPS[app].port]).toMatch(/^\d+$/);
  });

  it('starts each app only once what it needs is healthy', () => {
    const needs = Object.fromEntries(apps.map((app) => [app, services[app].depends_on]));
    expect(needs).toEqual({
      // Every service it forwards to: early calls to one not yet up would answer 503.
      gateway: {
        rabbitmq: { condition: 'service_healthy' },
        properties: { condition: 'service_healthy' },
        applications: { condition: 'service_healthy' },
        webhooks: { condition: 'service_healthy' },
        notifications: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      },
      properties: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
      applications: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
      form: {
        rabbitmq: { condition: 'service_healthy' },
        properties: { condition: 'service_healthy' },
        applications: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      },
      webhooks: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
      notifications: {
        rabbitmq: { condition: 'service_healthy' },
        mongodb: { condition: 'service_healthy' },
        maildev: { condition: 'service_healthy' },
      },
    });
  });

  it('shares the rate limits of the gateway and the form through the Redis of the stack', () => {
    for (const app of ['gateway', 'form']) {
      const config = environmentValidator(APPS[app].environment)(services[app].environment) as { REDIS_URL?: string };
      expect(config.REDIS_URL).toBe('redis://redis:6379');
    }
  });

  it('keeps the data of the database and the broker in named volumes', () => {
    const declared = Object.keys(compose.volumes);
    expect(services.mongodb.volumes[0]).toBe('mongodb-data:/data/db');
    expect(services.rabbitmq.volumes[0]).toBe('rabbitmq-data:/var/lib/rabbitmq');
    for (const mount of [services.mongodb.volumes[0], services.rabbitmq.volumes[0]]) {
      expect(declared).toContain(mount.split(':')[0]);
    }
  });

  it.each(apps)('gives %s an environment its own validation accepts, pointing at the broker and database of the stack', (app) => {
    // As the image runs it (the Dockerfile sets NODE_ENV), where the form requires what a development run does not.
    const environment = { NODE_ENV: 'production', ...services[app].environment };
    const config = environmentValidator(APPS[app].environment)(environment) as Record<string, unknown>;
    expect(config.AMQP_URL).toBe(`amqp://${app}:${app}-dev-only@rabbitmq:5672`);
    expect(config.MONGODB_URI).toBe(`mongodb://${app}:${app}-dev-only@mongodb:27017/?authSource=admin`);
  });

  it('makes each app’s database user, with the password that app is given, when the database is first made', () => {
    const mongodb = services.mongodb;
    expect(mongodb.volumes).toContain(
      './deploy/helm/rental-applications/files/mongodb/users.js:/docker-entrypoint-initdb.d/users.js:ro',
    );
    expect(mongodb.environment.MONGO_INITDB_ROOT_USERNAME).toBeTruthy();
    for (const app of apps) {
      const uri = new URL(services[app].environment.MONGODB_URI);
      expect([decodeURIComponent(uri.username), decodeURIComponent(uri.password)]).toEqual([
        app,
        mongodb.environment[`MONGODB_${app.toUpperCase()}_PASSWORD`],
      ]);
      expect(services[app].environment.NAMESPACE ?? '').toBe(mongodb.environment.NAMESPACE ?? '');
    }
    // Healthy only once the users exist: the check signs in as one.
    expect(mongodb.healthcheck.test.join(' ')).toContain(
      services.properties.environment.MONGODB_URI.replace('@mongodb:', '@127.0.0.1:'),
    );
  });

  it('gives the form no key that opens anything stored: only the public key of what it seals to', () => {
    const form = services.form.environment;
    expect(form.FIELD_ENCRYPTION_KEYS).toBeUndefined();
    expect(form.FORM_SEALING_KEYS).toBeUndefined();
    expect(form.FORM_SEALING_PUBLIC_KEY).toMatch(/^[\w-]+:[A-Za-z0-9+/]{43}=$/);
    expect(services.applications.environment.FORM_SEALING_KEYS).toBeDefined();
    expect(services.applications.environment.FORM_LINK_KEYS).toBe(form.FORM_LINK_KEYS);
  });

  it('configures the development keys, one per client, and publishes only the gateway and the form', () => {
    const keys = String(services.gateway.environment.API_KEYS).split(',');
    expect(keys).toEqual(['dev-local-key:1', 'dev-local-key-2:2']);
    expect(services.gateway.ports).toEqual(['127.0.0.1:3000:3000']);
    expect(services.form.ports).toEqual([`127.0.0.1:${services.form.environment.FORM_PORT}:3003`]);
    expect(services.properties.ports).toBeUndefined();
  });

  it('makes every form URL the API returns point at the published form', () => {
    for (const app of ['properties', 'applications', 'form']) {
      expect(services[app].environment.APPLY_BASE_URL).toBe('http://localhost:3003');
    }
  });

  it.each(Object.keys(services))('publishes the ports of %s on 127.0.0.1 only', (name) => {
    for (const port of services[name].ports ?? []) expect(String(port)).toMatch(/^127\.0\.0\.1:/);
  });

  describe('broker users', () => {
    const definitions = JSON.parse(readFileSync(join(__dirname, 'docker', 'rabbitmq', 'definitions.json'), 'utf8'));
    const permissionsOf = (user: string) => definitions.permissions.find((p: { user: string }) => p.user === user);
    const can = (user: string, what: 'configure' | 'write' | 'read', resource: string) =>
      new RegExp(permissionsOf(user)[what]).test(resource);
    const ownQueues = (queue: string) => [queue, deadLetterQueue(queue), deadLetterExchange(queue)];

    it('loads the definitions into the broker at boot', () => {
      const mounts: string[] = services.rabbitmq.volumes;
      expect(mounts).toContain('./docker/rabbitmq/definitions.json:/etc/rabbitmq/definitions.json:ro');
      const conf = mounts.find((mount) => mount.includes('conf.d'))!;
      expect(readFileSync(join(__dirname, conf.split(':')[0]), 'utf8')).toMatch(
        /^load_definitions = \/etc\/rabbitmq\/definitions\.json$/m,
      );
    });

    it('gives each app a user of its own, none of them an administrator', () => {
      for (const app of apps) {
        const user = definitions.users.find((u: { name: string }) => u.name === app);
        expect(user).toMatchObject({ tags: [] });
        expect(new URL(services[app].environment.AMQP_URL).username).toBe(app);
      }
      expect(definitions.users.map((u: { name: string }) => u.name)).not.toContain('guest');
    });

    it('lets a service declare, consume and dead-letter its own queue, and touch no other service’s', () => {
      for (const [service, other] of [
        ['properties', 'applications'],
        ['applications', 'properties'],
      ]) {
        for (const resource of ownQueues(service)) {
          expect([can(service, 'configure', resource), can(service, 'read', resource)]).toEqual([true, true]);
        }
        expect(can(service, 'write', 'amq.default')).toBe(true);
        for (const resource of [deadLetterQueue(other), deadLetterExchange(other)]) {
          expect(can(service, 'configure', resource)).toBe(false);
          expect(can(service, 'read', resource)).toBe(false);
        }
      }
      // The applications service asks the properties service, as the gateway does.
      expect(can('applications', 'read', 'amq.rabbitmq.reply-to')).toBe(true);
      expect(can('properties', 'configure', 'applications')).toBe(false);
    });

    it('has each service take messages only from the apps that send it any', () => {
      expect(services.properties.environment.TRUSTED_SENDERS).toBe('gateway,applications,form');
      expect(services.applications.environment.TRUSTED_SENDERS).toBe('gateway,form,notifications');
      expect(services.webhooks.environment.TRUSTED_SENDERS).toBe('gateway');
      expect(services.notifications.environment.TRUSTED_SENDERS).toBe('gateway,form');
    });

    it('has the consumers of events take them only from the services that publish them', () => {
      expect(services.webhooks.environment.EVENT_PUBLISHERS).toBe('properties,applications');
      expect(services.notifications.environment.EVENT_PUBLISHERS).toBe('properties,applications');
      for (const publisher of ['properties', 'applications']) expect(can(publisher, 'write', 'events')).toBe(true);
      for (const other of ['gateway', 'form', 'webhooks', 'notifications']) expect(can(other, 'write', 'events')).toBe(false);
    });

    it('sends the e-mails to the local inbox, whose page alone is published', () => {
      expect(services.notifications.environment.SMTP_URL).toBe('smtp://maildev:1025');
      expect(services.maildev.ports).toEqual(['127.0.0.1:1080:1080']);
    });

    it('runs the MailDev that `npm start` runs from node_modules, checked on that version’s API path', () => {
      const lock = JSON.parse(readFileSync(join(__dirname, 'package-lock.json'), 'utf8'));
      expect(imageOf('maildev')).toBe(`maildev/maildev:${lock.packages['node_modules/maildev'].version}`);
      expect(services.maildev.healthcheck.test.join(' ')).toContain('http://127.0.0.1:1080/api/healthz');
    });

    it('lets the notifications service keep its queues, take events, ask the applications service, and the properties service hand it invitations', () => {
      for (const resource of [
        'notifications',
        'notifications.events',
        'notifications.decisions',
        'notifications.outgoing',
        'notifications.reminders',
        'notifications.invitations.dead-letter',
        'notifications.retry.60s',
        'notifications.reminders.wait.86400000ms',
      ]) {
        expect([
          can('notifications', 'configure', resource),
          can('notifications', 'write', resource),
          can('notifications', 'read', resource),
        ]).toEqual([true, true, true]);
      }
      expect([can('notifications', 'read', 'events'), can('notifications', 'write', 'events')]).toEqual([true, false]);
      expect(can('notifications', 'read', 'amq.rabbitmq.reply-to')).toBe(true);
      expect(can('notifications', 'read', 'webhooks.events')).toBe(false);
      expect([can('properties', 'configure', 'notifications.invitations'), can('properties', 'write', 'amq.default')]).toEqual([
        true,
        true,
      ]);
      expect(can('properties', 'configure', 'notifications.events')).toBe(false);
    });

    it('lets the services publish domain events, and the webhooks service take them and keep its retries', () => {
      for (const service of ['properties', 'applications']) {
        expect([can(service, 'configure', 'events'), can(service, 'write', 'events')]).toEqual([true, true]);
        expect(can(service, 'read', 'webhooks.events')).toBe(false);
      }
      for (const resource of [
        'webhooks',
        ...ownQueues('webhooks.events'),
        ...ownQueues('webhooks.deliveries'),
        'webhooks.events.backoff.10s',
        'webhooks.retry.300s',
        'webhooks.deliveries.wait.1s',
        'webhooks.deliveries.wait.30s',
      ]) {
        expect([
          can('webhooks', 'configure', resource),
          can('webhooks', 'write', resource),
          can('webhooks', 'read', resource),
        ]).toEqual([true, true, true]);
      }
      // Binding its queue to the exchange takes read on the exchange; publishing to it is the services' only.
      expect(can('webhooks', 'read', 'events')).toBe(true);
      expect(can('webhooks', 'write', 'events')).toBe(false);
      expect(can('webhooks', 'read', 'properties')).toBe(false);
      // Every declarer of the exchange states its alternate exchange (which takes read on the
      // exchange and write on the alternate) and keeps the unrouted events' queue bound to it.
      for (const service of ['properties', 'applications', 'webhooks', 'notifications']) {
        expect([
          can(service, 'read', 'events'),
          can(service, 'configure', 'events.unrouted'),
          can(service, 'write', 'events.unrouted'),
          can(service, 'read', 'events.unrouted'),
        ]).toEqual([true, true, true, true]);
      }
    });

    it.each(['gateway', 'form'])(
      'lets the %s send to the services’ request exchanges and read its replies, nothing more',
      (sender) => {
        const asked =
          sender === 'gateway'
            ? ['properties', 'applications', 'webhooks', 'notifications']
            : // The form asks the notifications service only for the links its e-mails carry.
              ['properties', 'applications', 'notifications'];
        for (const queue of asked) {
          // The client declares the exchange it publishes to; the service declares and binds its queue.
          expect([can(sender, 'configure', requestExchange(queue)), can(sender, 'write', requestExchange(queue))]).toEqual([
            true,
            true,
          ]);
          for (const resource of ownQueues(queue)) {
            expect([can(sender, 'configure', resource), can(sender, 'write', resource), can(sender, 'read', resource)]).toEqual([
              false,
              false,
              false,
            ]);
          }
        }
        expect(can(sender, 'read', 'amq.rabbitmq.reply-to')).toBe(true);
        // Write on the default exchange would reach every queue, the services' internal ones included.
        expect(can(sender, 'write', 'amq.default')).toBe(false);
        expect(can('form', 'write', requestExchange('webhooks'))).toBe(false);
      },
    );

    it('lets each service bind its queue to its request exchange, and the services that ask another publish to its', () => {
      for (const service of ['properties', 'applications', 'webhooks', 'notifications']) {
        expect([can(service, 'configure', requestExchange(service)), can(service, 'read', requestExchange(service))]).toEqual([
          true,
          true,
        ]);
      }
      expect(can('applications', 'write', requestExchange('properties'))).toBe(true);
      expect(can('notifications', 'write', requestExchange('applications'))).toBe(true);
      expect(can('properties', 'write', requestExchange('applications'))).toBe(false);
    });
  });

  it.each(apps)('sends the traces of %s to Jaeger over OTLP, keeping every one', (app) => {
    expect(services[app].environment).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    });
    // Not a dependency: an app whose traces cannot go out still serves.
    expect(services[app].depends_on.jaeger).toBeUndefined();
  });

  it('runs Jaeger from its official image, pinned, its UI on 127.0.0.1 and OTLP inside the stack only', () => {
    expect(imageOf('jaeger')).toMatch(/^jaegertracing\/jaeger:\d+\.\d+\.\d+@sha256:[0-9a-f]{64}$/);
    expect(services.jaeger.ports).toEqual(['127.0.0.1:16686:16686']);
    expect(services.jaeger.expose).toEqual(['4318']);
  });

  it('pins every third-party image by its digest, but MailDev’s, whose digest could not be found', () => {
    const thirdParty = Object.keys(services).filter((name) => !apps.includes(name));
    const unpinned = thirdParty.filter((name) => !DIGEST.test(imageOf(name)));
    expect(unpinned).toEqual(['maildev']);
    // Replaceable by a stand-in (the container suite's), the pinned image otherwise.
    for (const name of ['rabbitmq', 'redis', 'jaeger', 'maildev']) {
      expect(services[name].image).toMatch(new RegExp(`^\\$\\{${name.toUpperCase()}_IMAGE:-[^}]+\\}$`));
    }
  });

  it.each(apps)('names the image of %s as the chart does, built from the one Dockerfile', (app) => {
    expect(services[app].image).toBe(`rental-applications-${app}`);
    expect(services[app].build).toEqual({ context: '.', args: { APP: app } });
  });

  it('gives the broker a fixed host name, so that its data outlives the container', () => {
    expect(services.rabbitmq.hostname).toBe('rabbitmq');
  });

  it('can run three applications instances, and says how', () => {
    expect(text).toContain('docker compose up --build --scale applications=3');
    // A fixed container name or host port would make a second instance fail to start.
    expect(services.applications.container_name).toBeUndefined();
    expect(services.applications.ports).toBeUndefined();
  });

  describe("as docker-compose itself reads it (`docker-compose config`, Debian's package, which .ci/run installs)", () => {
    /** What `docker-compose config` says of `file`: null when it takes it, else its complaint. */
    const complaint = (file: string): string | null => {
      try {
        execFileSync('docker-compose', ['--file', file, '--project-directory', __dirname, 'config', '--quiet'], {
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        return null;
      } catch (error) {
        return String((error as { stderr?: Buffer }).stderr ?? error);
      }
    };

    it('is a valid Compose file', () => {
      expect(complaint(join(__dirname, 'docker-compose.yml'))).toBeNull();
    }, 60000);

    it('would not be, with a misspelled option', () => {
      const dir = mkdtempSync(join(tmpdir(), 'compose-'));
      try {
        const file = join(dir, 'docker-compose.yml');
        writeFileSync(file, text.replace('    healthcheck: *app-healthcheck', '    healtcheck: *app-healthcheck'));
        expect(complaint(file)).toContain("Unsupported config option for services.properties: 'healtcheck'");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60000);
  });
});
