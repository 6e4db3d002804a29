import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
    const name = `${prefix}${randomBytes(3).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
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
