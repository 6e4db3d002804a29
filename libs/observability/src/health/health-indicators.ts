import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { Connection } from 'mongoose';
import { Observable } from 'rxjs';

/** How long a readiness check waits for any one part to answer. */
export const READINESS_TIMEOUT_MS = 1000;

/**
 * The state of one broker connection (an RMQ client's or server's), followed from the status
 * Nest reports for it: connected until told otherwise, not connected before the first word.
 */
export class BrokerConnection {
  private status: string | null = null;

  constructor(status: Observable<string>) {
    status.subscribe((next) => (this.status = next));
  }

  get connected(): boolean {
    return this.status === 'connected' || this.status === 'unblocked';
  }
}

/** Readiness checks, as terminus indicators. */
@Injectable()
export class ReadinessIndicators {
  constructor(private readonly indicators: HealthIndicatorService) {}

  /** Up when every one of the connections is connected to RabbitMQ. */
  broker(key: string, connections: BrokerConnection[]): HealthIndicatorResult {
    const check = this.indicators.check(key);
    return connections.every((connection) => connection.connected)
      ? check.up()
      : check.down({ message: 'not connected to RabbitMQ' });
  }

  /**
   * Up when every collection of the service's database gives one document in time: a real read
   * of its storage, as the service's own work makes. A ping would not do: FerretDB answers it
   * without touching its storage, so a database whose reads fail or time out looked ready.
   */
  async database(key: string, connection: Connection): Promise<HealthIndicatorResult> {
    return this.answers(key, () => readEveryCollection(connection), 'the database');
  }

  /** Up when `ask` resolves within READINESS_TIMEOUT_MS. */
  async answers(key: string, ask: () => Promise<unknown>, what: string): Promise<HealthIndicatorResult> {
    const check = this.indicators.check(key);
    try {
      await withTimeout(ask(), READINESS_TIMEOUT_MS);
      return check.up();
    } catch {
      return check.down({ message: `${what} did not answer within ${READINESS_TIMEOUT_MS} ms` });
    }
  }
}

async function readEveryCollection(connection: Connection): Promise<void> {
  const db = connection.db!;
  const collections = await db.listCollections({}, { nameOnly: true }).toArray();
  await Promise.all(
    collections.map(({ name }) => db.collection(name).find({}, { timeoutMS: READINESS_TIMEOUT_MS }).limit(1).toArray()),
  );
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
