import { ApplicationVersions } from '../applications/application-versions';
import { ApplicationRecord } from '../applications/application.schema';
import { ApplicationsRepository } from '../applications/applications.repository';
import { PersonalDataErasure } from './personal-data-erasure';
import { PersonalDataRetention, retentionEnded } from './personal-data-retention';
import { RetentionSettings } from './retention-settings';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2028-06-01T12:00:00Z');
const decided = (id: number, clientId: number, daysAgo: number, erased = false) =>
  ({
    id,
    client_id: clientId,
    decisions: [{ status: 'declined', decided_at: new Date(NOW - daysAgo * DAY_MS) }],
    ...(erased ? { personal_data_erased_at: new Date(NOW - DAY_MS) } : {}),
  }) as unknown as ApplicationRecord;

describe('retentionEnded', () => {
  it('is true once the days have passed since the current decision, and never for one undecided or erased', () => {
    expect(retentionEnded(decided(1, 1, 730), 730, NOW)).toBe(true);
    expect(retentionEnded(decided(1, 1, 729.9), 730, NOW)).toBe(false);
    expect(retentionEnded({ ...decided(1, 1, 800), decisions: undefined }, 730, NOW)).toBe(false);
    expect(retentionEnded(decided(1, 1, 800, true), 730, NOW)).toBe(false);
  });

  it('counts from the current decision, the first of the history', () => {
    const replaced = decided(1, 1, 10);
    replaced.decisions!.push({ ...replaced.decisions![0], decided_at: new Date(NOW - 900 * DAY_MS) });
    expect(retentionEnded(replaced, 730, NOW)).toBe(false);
  });
});

describe('PersonalDataRetention', () => {
  /** The sweep over `stored` applications, each client's retention from `days` (the default elsewhere). */
  function sweep(stored: ApplicationRecord[], days: Record<number, number>) {
    const erased: number[] = [];
    const asked: number[] = [];
    const retention = new PersonalDataRetention(
      {
        decidedBefore: async () => stored.map((application) => application.id),
        findAllByKey: async (ids: number[]) => stored.filter((application) => ids.includes(application.id)),
      } as unknown as ApplicationsRepository,
      { currentAll: async (applications: ApplicationRecord[]) => applications } as unknown as ApplicationVersions,
      {
        get: async (clientId: number) => (asked.push(clientId), { personal_data_days: days[clientId] ?? 730 }),
      } as unknown as RetentionSettings,
      {
        settle: async () => 0,
        eraseExpired: async (application: ApplicationRecord) => void erased.push(application.id),
      } as unknown as PersonalDataErasure,
    );
    return { retention, erased, asked };
  }

  it('erases the applications past their client’s retention, asking each client’s setting once', async () => {
    const stored = [decided(1, 1, 40), decided(2, 1, 20), decided(3, 2, 40), decided(4, 2, 800), decided(5, 1, 60, true)];
    const { retention, erased, asked } = sweep(stored, { 1: 30 });
    expect(await retention.eraseExpired(NOW)).toBe(2);
    expect(erased).toEqual([1, 4]);
    expect(asked.sort()).toEqual([1, 2]);
  });

  it('does not start a sweep while the one before is still at work', async () => {
    const { retention, erased } = sweep([decided(1, 1, 800)], {});
    const [first, second] = await Promise.all([retention.eraseExpired(NOW), retention.eraseExpired(NOW)]);
    expect([first, second]).toEqual([1, 0]);
    expect(erased).toEqual([1]);
  });
});
