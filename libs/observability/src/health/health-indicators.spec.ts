import { HealthIndicatorService } from '@nestjs/terminus';
import { Connection } from 'mongoose';
import { ReadinessIndicators } from './health-indicators';

/** A database that answers a ping at once, and reads of its collections as `read` does. */
function database(read: () => Promise<unknown[]>): Connection {
  const collection = () => ({ find: () => ({ limit: () => ({ toArray: read }) }) });
  return {
    db: {
      admin: () => ({ ping: async () => ({ ok: 1 }) }),
      listCollections: () => ({ toArray: async () => [{ name: 'properties' }, { name: 'event_outbox' }] }),
      collection,
    },
  } as unknown as Connection;
}

describe('ReadinessIndicators.database', () => {
  const indicators = new ReadinessIndicators(new HealthIndicatorService());

  it('is up when the collections can be read', async () => {
    await expect(
      indicators.database(
        'database',
        database(async () => []),
      ),
    ).resolves.toEqual({
      database: { status: 'up' },
    });
  });

  it('is down when reads fail although the database answers a ping', async () => {
    const failing = database(() => Promise.reject(Object.assign(new Error('interrupted'), { code: 1 })));
    await expect(indicators.database('database', failing)).resolves.toEqual({
      database: { status: 'down', message: expect.stringContaining('the database') },
    });
  });
});
