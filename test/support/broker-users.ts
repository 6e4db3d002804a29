import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DEFINITIONS = join(__dirname, '..', '..', 'docker', 'rabbitmq', 'definitions.json');

/**
 * A broker user of the test's own, besides the one the apps connect as: a stand-in for another
 * app (the form, say) whose messages RabbitMQ stamps with its own `user_id`. Made with rabbitmqctl
 * on the broker at AMQP_URL (which the broker-restarting suites need too), allowed everything, so
 * that only the services' checks of the sender stand in its way.
 */
/** What a broker user may do on the vhost: RabbitMQ's three patterns of resource names. */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
}

/**
 * The permissions docker/rabbitmq/definitions.json gives `user`, for names under a namespace:
 * `namespace` is a regular expression of the prefix every queue and exchange name starts with.
 */
export function definedPermissions(user: string, namespace: string): BrokerPermissions {
  const definitions = JSON.parse(readFileSync(DEFINITIONS, 'utf8')) as {
    permissions: Array<BrokerPermissions & { user: string }>;
  };
  const defined = definitions.permissions.find((entry) => entry.user === user);
  if (!defined) throw new Error(`${DEFINITIONS} has no permissions for ${user}`);
  const namespaced = (pattern: string) => {
    // Each pattern is one group of alternatives, `^(...)...$`, which the namespace may come before.
    if (!pattern.startsWith('^(')) throw new Error(`${DEFINITIONS}: ${user}'s pattern ${pattern} does not start with ^(`);
    return `^(?:${namespace})?(${pattern.slice(2)}`;
  };
  return { configure: namespaced(defined.configure), write: namespaced(defined.write), read: namespaced(defined.read) };
}

export class BrokerUser {
  private constructor(
    readonly name: string,
    readonly url: string,
  ) {}

  /** A new user, allowed everything unless `permissions` (configure, write and read patterns) says less. */
  static async add(
    prefix: string,
    permissions: BrokerPermissions = { configure: '.*', write: '.*', read: '.*' },
  ): Promise<BrokerUser> {
    return BrokerUser.create(`${prefix}${randomBytes(3).toString('hex')}`, randomBytes(12).toString('hex'), permissions);
  }

  /**
   * The user `name` with `password`, as a deployment names it (the chart's, say), made anew: one
   * left behind by a run that never got to remove it is replaced.
   */
  static async create(name: string, password: string, permissions: BrokerPermissions): Promise<BrokerUser> {
    await run('rabbitmqctl', ['delete_user', name]).catch(() => undefined);
    await run('rabbitmqctl', ['add_user', name, password]);
    const { configure, write, read } = permissions;
    await run('rabbitmqctl', ['set_permissions', '-p', '/', name, configure, write, read]);
    const url = new URL(process.env.AMQP_URL!);
    url.username = name;
    url.password = password;
    return new BrokerUser(name, url.toString());
  }

  async remove(): Promise<void> {
    await run('rabbitmqctl', ['delete_user', this.name]);
  }
}
