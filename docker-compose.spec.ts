import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { environmentValidator } from '@app/config';
import { ApplicationsEnvironment } from './apps/applications/src/config/applications.environment';
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
  gateway: { environment: GatewayEnvironment, port: 'PORT' },
  properties: { environment: PropertiesEnvironment, port: 'HTTP_PORT' },
  applications: { environment: ApplicationsEnvironment, port: 'HTTP_PORT' },
  webhooks: { environment: WebhooksEnvironment, port: 'HTTP_PORT' },
};
const apps = Object.keys(APPS);

describe('docker-compose.yml', () => {
  it('runs the broker, the database and the three apps', () => {
    expect(Object.keys(services).sort()).toEqual(['applications', 'gateway', 'mongodb', 'properties', 'rabbitmq', 'webhooks']);
  });

  it.each(Object.keys(services))('gives %s a healthcheck', (name) => {
    const { healthcheck } = services[name];
    expect(healthcheck.test[0]).toBe('CMD');
    expect(healthcheck).toMatchObject({ interval: expect.any(String), timeout: expect.any(String), retries: expect.any(Number) });
  });

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
      gateway: {
        rabbitmq: { condition: 'service_healthy' },
        properties: { condition: 'service_healthy' },
        applications: { condition: 'service_healthy' },
      },
      properties: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
      applications: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
      webhooks: { rabbitmq: { condition: 'service_healthy' }, mongodb: { condition: 'service_healthy' } },
    });
  });

  it('keeps the data of the database and the broker in named volumes', () => {
    const declared = Object.keys(compose.volumes);
    expect(services.mongodb.volumes).toEqual(['mongodb-data:/data/db']);
    expect(services.rabbitmq.volumes).toEqual(['rabbitmq-data:/var/lib/rabbitmq']);
    for (const mount of [...services.mongodb.volumes, ...services.rabbitmq.volumes]) {
      expect(declared).toContain(mount.split(':')[0]);
    }
  });

  it.each(apps)('gives %s an environment its own validation accepts, pointing at the broker and database of the stack', (app) => {
    const environment = services[app].environment;
    const config = environmentValidator(APPS[app].environment)(environment) as Record<string, unknown>;
    expect(config.AMQP_URL).toBe('amqp://guest:guest@rabbitmq:5672');
    if (app !== 'gateway') expect(config.MONGODB_URI).toBe('mongodb://mongodb:27017');
  });

  it('configures the development keys, one per client, and publishes only the gateway', () => {
    const keys = String(services.gateway.environment.API_KEYS).split(',');
    expect(keys).toEqual(['dev-local-key:1', 'dev-local-key-2:2']);
    expect(services.gateway.ports).toEqual(['3000:3000']);
    expect(services.properties.ports).toBeUndefined();
  });

  it('can run three applications instances, and says how', () => {
    expect(text).toContain('docker compose up --build --scale applications=3');
    // A fixed container name or host port would make a second instance fail to start.
    expect(services.applications.container_name).toBeUndefined();
    expect(services.applications.ports).toBeUndefined();
  });
});
