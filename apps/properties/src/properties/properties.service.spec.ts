import { parsePageQuery } from '@app/contracts';
import { IdAllocator, Idempotency } from '@app/persistence';
import { PropertiesEnvironment } from '../config/properties.environment';
import { ClientDefaults } from './client-defaults';
import { PropertiesRepository } from './properties.repository';
import { PropertiesService } from './properties.service';
import { PropertyList } from './property-list';
import { PropertyRecord } from './property.schema';

const AT = new Date('2026-01-02T03:04:05.678Z');

function property(id: number, overrides: Partial<PropertyRecord> = {}): PropertyRecord {
  return {
    id,
    client_id: 7,
    available: true,
    kind: 'multi_family',
    name: `Property ${id}`,
    street: '',
    city: '',
    state: '',
    zip: '',
    invitation_only: false,
    invitation_only_message: '',
    form_preset_id: 1,
    background_config_id: 1,
    floor_plans: [],
    created_at: AT,
    updated_at: AT,
    request_key: `message:${id}`,
    deleted_at: null,
    version: 0,
    ...overrides,
  };
}

/** A service over `stored`, listed at positions 1..n in the order given, with its reads counted. */
function serviceOver(stored: PropertyRecord[]) {
  const reads = { positions: 0, properties: 0 };
  const list = {
    highest: async () => stored.length,
    at: async (_clientId: number, from: number, count: number) => {
      const positions = Array.from({ length: Math.max(0, Math.min(count, from)) }, (_, i) => from - i);
      reads.positions += positions.length;
      return positions.map((seq) => ({ seq, propertyId: stored[seq - 1].id }));
    },
  } as unknown as PropertyList;
  const repository = {
    findLive: async (clientId: number, id: number) => {
      reads.properties++;
      const record = stored.find((p) => p.id === id);
      return record && record.client_id === clientId && !record.deleted_at ? record : null;
    },
  } as unknown as PropertiesRepository;
  const env = { PUBLIC_BASE_URL: 'https://rentals.example.com/' } as PropertiesEnvironment;
  const service = new PropertiesService(
    repository,
    {} as IdAllocator,
    {} as Idempotency,
    new ClientDefaults({ form_preset_id: 1, background_config_id: 1 }, ''),
    list,
    env,
  );
  return { service, reads };
}

describe('PropertiesService.listPage', () => {
  it('pages newest first, each cursor leading on from the last property shown', async () => {
    const { service } = serviceOver([1, 2, 3, 4, 5].map((id) => property(id)));
    const first = await service.listPage(7, { limit: 2 });
    expect(first.items.map((p) => p.id)).toEqual([5, 4]);
    const second = await service.listPage(7, parsePageQuery({ limit: '2', cursor: first.next_cursor }));
    expect(second.items.map((p) => p.id)).toEqual([3, 2]);
    const last = await service.listPage(7, parsePageQuery({ limit: '2', cursor: second.next_cursor }));
    expect(last).toEqual({ items: [expect.objectContaining({ id: 1 })], next_cursor: null });
  });

  it('gives no cursor when the page ends exactly at the oldest property', async () => {
    const { service } = serviceOver([1, 2].map((id) => property(id)));
    expect((await service.listPage(7, { limit: 2 })).next_cursor).toBeNull();
  });

  it('skips deleted, foreign and unstored properties, and those the filter leaves out', async () => {
    const { service } = serviceOver([
      property(1),
      property(2, { available: false }),
      property(3, { deleted_at: AT }),
      property(4, { client_id: 8 }),
      property(5),
    ]);
    expect((await service.listPage(7, { limit: 10 })).items.map((p) => p.id)).toEqual([5, 2, 1]);
    expect((await service.listPage(7, { limit: 10 }, true)).items.map((p) => p.id)).toEqual([5, 1]);
    expect((await service.listPage(7, { limit: 10 }, false)).items.map((p) => p.id)).toEqual([2]);
  });

  it('reads a bounded number of positions, answering a short page with a cursor to go on from', async () => {
    const stored = Array.from({ length: 1000 }, (_, i) => property(i + 1, { available: i === 0 }));
    const { service, reads } = serviceOver(stored);
    const page = await service.listPage(7, { limit: 25 }, true);
    expect(page.items).toEqual([]);
    expect(reads.positions).toBe(200);
    expect(reads.properties).toBe(200);
    expect(parsePageQuery({ cursor: page.next_cursor })).toEqual({ limit: 25, before: 801 });

    let cursor: string | null = page.next_cursor;
    const found: number[] = [];
    while (cursor !== null) {
      const next = await service.listPage(7, parsePageQuery({ limit: '25', cursor }), true);
      found.push(...next.items.map((p) => p.id));
      cursor = next.next_cursor;
    }
    expect(found).toEqual([1]);
  });
});
