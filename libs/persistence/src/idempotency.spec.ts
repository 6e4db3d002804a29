import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode, ServiceError } from '@app/contracts';
import { BodyFingerprints, Idempotency } from './idempotency';
import { MemoryDatabase } from './memory-storage.testing';

const ringKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const OLD = ringKey('old');
const NEW = ringKey('new');
const application = { property_id: 1, applicant: { first_name: 'A', id_number: '078051120', dob: '1981-07-23' } };

describe('BodyFingerprints', () => {
  const fingerprints = new BodyFingerprints(OLD);

  it('is the same for equal bodies whatever the order of their keys, at any depth', () => {
    const one = { application: { property_id: 1, applicant: { first_name: 'A', custom_data: { x: [1, { b: 2, a: 1 }] } } } };
    const two = { application: { applicant: { custom_data: { x: [1, { a: 1, b: 2 }] }, first_name: 'A' }, property_id: 1 } };
    expect(fingerprints.of(one)).toBe(fingerprints.of(two));
  });

  it('differs when a value, a key, or the order of an array differs', () => {
    const base = fingerprints.of({ a: 1, list: [1, 2] });
    expect(fingerprints.of({ a: 2, list: [1, 2] })).not.toBe(base);
    expect(fingerprints.of({ b: 1, list: [1, 2] })).not.toBe(base);
    expect(fingerprints.of({ a: 1, list: [2, 1] })).not.toBe(base);
    expect(fingerprints.of({ a: '1', list: [1, 2] })).not.toBe(base);
  });

  it('ignores fields left undefined, as JSON does', () => {
    expect(fingerprints.of({ a: 1, b: undefined })).toBe(fingerprints.of({ a: 1 }));
  });

  it('cannot be worked out without the key: it names its key and is no plain digest of the body', () => {
    const fingerprint = fingerprints.of(application);
    expect(fingerprint).toMatch(/^old:[0-9a-f]{64}$/);
    const digest = createHash('sha256').update(JSON.stringify(application)).digest('hex');
    expect(fingerprint).not.toContain(digest);
    expect(new BodyFingerprints(ringKey('old')).of(application)).not.toBe(fingerprint);
  });

  it('still matches fingerprints made under a key rotated out of first place, and none under a dropped key', () => {
    const stored = fingerprints.of(application);
    expect(new BodyFingerprints(`${NEW},${OLD}`).matches(stored, application)).toBe(true);
    expect(new BodyFingerprints(`${NEW},${OLD}`).matches(stored, { ...application, property_id: 2 })).toBe(false);
    expect(new BodyFingerprints(NEW).matches(stored, application)).toBe(false);
  });

  it('refuses a missing or malformed FINGERPRINT_KEYS, naming it and quoting no key', () => {
    expect(() => new BodyFingerprints(undefined)).toThrow('FINGERPRINT_KEYS is not set');
    expect(() => new BodyFingerprints('k1:c2hvcnQ=')).toThrow('FINGERPRINT_KEYS entry 1 (key id k1) must be 32 bytes');
  });
});

describe('Idempotency', () => {
  let database: MemoryDatabase;
  let store: Idempotency;
  const scope = (key: string | undefined, messageId: string, body: unknown = application) => ({
    clientId: 7,
    key,
    messageId,
    body,
  });

  beforeEach(() => {
    database = new MemoryDatabase();
    store = new Idempotency(database.connection(), new BodyFingerprints(OLD));
  });

  it('does a keyed request done once with inserts alone: no read, no update of a claim', async () => {
    const answer = await store.run(scope('k-1', 'm-1'), async (requestKey, resumed) => ({ requestKey, resumed }));

    expect(answer).toEqual({ requestKey: expect.stringMatching(/^key:/), resumed: false });
    for (const collection of database.collections.values()) {
      expect({ reads: collection.reads, updates: collection.updates }).toEqual({ reads: 0, updates: 0 });
    }
  });

  it('replays the outcome to a repeat, reading by _id alone, and refuses another body under the key', async () => {
    let runs = 0;
    const first = await store.run(scope('k-1', 'm-1'), async () => ++runs);
    expect(await store.run(scope('k-1', 'm-2'), async () => ++runs)).toBe(first);
    await expect(store.run(scope('k-1', 'm-3', { ...application, property_id: 2 }), async () => ++runs)).rejects.toMatchObject({
      code: ErrorCode.IDEMPOTENCY_KEY_REUSED,
    });
    expect(runs).toBe(1);
  });

  it('answers a claim only to the API key that made it, with one refusal whatever the body', async () => {
    let runs = 0;
    const keyed = (keyId: string | undefined, messageId: string, body: unknown = application) => ({
      ...scope('k-1', messageId, body),
      keyId,
    });
    const first = await store.run(keyed('aaaaaaaaaaaaaaaa', 'm-1'), async () => ++runs);
    const same = store.run(keyed('bbbbbbbbbbbbbbbb', 'm-2'), async () => ++runs);
    const other = store.run(keyed('bbbbbbbbbbbbbbbb', 'm-3', { ...application, property_id: 2 }), async () => ++runs);

    await expect(same).rejects.toMatchObject({
      code: ErrorCode.IDEMPOTENCY_KEY_REUSED,
      message: expect.stringContaining('another API key'),
    });
    const [a, b] = await Promise.allSettled([same, other]);
    expect(b).toEqual(a);
    // A gateway of the previous release names no key: the claim answers it as it did.
    expect(await store.run(keyed(undefined, 'm-4'), async () => ++runs)).toBe(first);
    expect(await store.run(keyed('aaaaaaaaaaaaaaaa', 'm-5'), async () => ++runs)).toBe(first);
    expect(runs).toBe(1);
  });

  it('replays a refusal the same request would get again', async () => {
    const refuse = async (): Promise<never> => {
      throw ServiceError.propertyIdInvalid();
    };
    await expect(store.run(scope('k-1', 'm-1'), refuse)).rejects.toMatchObject({ code: ErrorCode.PROPERTY_ID_INVALID });
    await expect(store.run(scope('k-1', 'm-2'), async () => 'stored')).rejects.toMatchObject({
      code: ErrorCode.PROPERTY_ID_INVALID,
    });
  });

  it('tells the try that takes a claim over that it resumes the earlier one, under the same request key', async () => {
    const seen: Array<[string, boolean]> = [];
    await expect(
      store.run(scope('k-1', 'm-1'), async (requestKey, resumed) => {
        seen.push([requestKey, resumed]);
        throw new Error('the process died here');
      }),
    ).rejects.toThrow('the process died here');
    await store.run(scope('k-1', 'm-2'), async (requestKey, resumed) => {
      seen.push([requestKey, resumed]);
      return 'done';
    });

    expect(seen).toEqual([
      [seen[0][0], false],
      [seen[0][0], true],
    ]);
  });

  it('answers a repeat while the first try is at work with IDEMPOTENCY_IN_PROGRESS', async () => {
    let finish!: () => void;
    const first = store.run(scope('k-1', 'm-1'), () => new Promise<string>((resolve) => (finish = () => resolve('first'))));
    await new Promise((resolve) => setImmediate(resolve));
    await expect(store.run(scope('k-1', 'm-2'), async () => 'second')).rejects.toMatchObject({
      code: ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    });
    finish();
    expect(await first).toBe('first');
  });

  it('gives a request without a key its message id as request key', async () => {
    expect(await store.run(scope(undefined, 'm-9'), async (requestKey, resumed) => [requestKey, resumed])).toEqual([
      'message:m-9',
      false,
    ]);
  });
});
