import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ApplicationsEnvironment } from '../apps/applications/src/config/applications.environment';
import { FormEnvironment } from '../apps/form/src/config/form.environment';
import { GatewayEnvironment } from '../apps/gateway/src/config/gateway.environment';
import { NotificationsEnvironment } from '../apps/notifications/src/config/notifications.environment';
import { PropertiesEnvironment } from '../apps/properties/src/config/properties.environment';
import { WebhooksEnvironment } from '../apps/webhooks/src/config/webhooks.environment';
import { CHART, KubeObject, ofKind, renderChart } from './chart';

/** What each app reads: every field of its environment class (ES2022 class fields are defined, set or not). */
const READS: Record<string, string[]> = {
  gateway: Object.keys(new GatewayEnvironment()),
  form: Object.keys(new FormEnvironment()),
  properties: Object.keys(new PropertiesEnvironment()),
  applications: Object.keys(new ApplicationsEnvironment()),
  webhooks: Object.keys(new WebhooksEnvironment()),
  notifications: Object.keys(new NotificationsEnvironment()),
};

/** What an app reads that the chart leaves alone on purpose, and why. */
const LEFT_ALONE: Record<string, string[]> = {
  // The image sets NODE_ENV=production, which the form judges its framing and HSTS settings by.
  form: ['NODE_ENV'],
  // Every service reads it; only those that consume the domain events (webhooks, notifications) use it.
  properties: ['EVENT_PUBLISHERS'],
  applications: ['EVENT_PUBLISHERS'],
};

interface Deployment extends KubeObject {
  spec: { template: { spec: { containers: Array<{ env: Array<{ name: string }> }> } } };
}

const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as {
  properties: { apps: { properties: Record<string, { properties: { env: { propertyNames: { enum: string[] } } } }> } };
};
/** The settings an operator may add to each app's `env`, by the schema. */
const extraSettings = (app: string): string[] => schema.properties.apps.properties[app].properties.env.propertyNames.enum;

/**
 * The chart's environment tied to the apps' environment classes: whatever the chart sets, or lets
 * an operator set, is read by the app, and whatever the app reads the chart sets or lets be set,
 * so that a setting added to an app fails here until the chart takes it.
 */
describe("the chart's environment of each app", () => {
  const deployments = ofKind<Deployment>(renderChart('development'), 'Deployment');
  const example = parse(readFileSync(join(CHART, 'values-development.yaml'), 'utf8')) as {
    apps: Record<string, { env?: Record<string, string> }>;
  };
  /** The variables the chart sets itself: those of the Deployment but the example's own `env`. */
  const setByChart = (app: string): string[] =>
    deployments
      .find((d) => d.metadata.labels?.['app.kubernetes.io/component'] === app)!
      .spec.template.spec.containers[0].env.map((variable) => variable.name)
      // Read by the tracing set-up, not by the environment class.
      .filter((name) => !name.startsWith('OTEL_') && !(name in (example.apps[app]?.env ?? {})));

  it.each(Object.keys(READS))('%s: is only what the app reads', (app) => {
    const unread = [...setByChart(app), ...extraSettings(app)].filter((name) => !READS[app].includes(name));
    expect(unread).toEqual([]);
  });

  it.each(Object.keys(READS))('%s: covers everything the app reads', (app) => {
    const covered = new Set([...setByChart(app), ...extraSettings(app), ...(LEFT_ALONE[app] ?? [])]);
    expect(READS[app].filter((name) => !covered.has(name))).toEqual([]);
  });

  it.each(Object.keys(READS))('%s: lets no setting the chart makes itself be set again through env', (app) => {
    expect(extraSettings(app).filter((name) => setByChart(app).includes(name))).toEqual([]);
  });
});
