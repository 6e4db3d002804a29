import { ErrorCode, FORM_PRESETS, FormPresetInput } from '@app/contracts';
import { EventOutbox } from '@app/events';
import { Idempotency } from '@app/persistence';
import { MemoryDatabase, MemoryStorage } from '@app/persistence/memory-storage.testing';
import { PropertiesRepository } from '../properties/properties.repository';
import { PropertyRecord } from '../properties/property.schema';
import { FormPresetsRepository } from './form-presets.repository';
import { FormPresetsService } from './form-presets.service';

const CLIENT = 7;
const OTHER = 8;
const EVICTED = { id: 'evicted', label: 'Ever evicted?', kind: 'yes_no' as const, required: true };

/** An outbox that keeps what it is told: events recorded, said written, discarded. */
function outboxInMemory() {
  let next = 0;
  const recorded = new Map<string, { event: string; data: unknown; key: string }>();
  const written: string[] = [];
  const discarded: string[] = [];
  const outbox = {
    record: async (_clientId: number, witness: { key: string }, specs: Array<{ event: string; data: unknown }>) =>
      specs.map((spec) => {
        const id = `evt_${++next}`;
        recorded.set(id, { ...spec, key: witness.key });
        return id;
      }),
    written: (ids: string[]) => written.push(...ids),
    discard: async (ids: string[]) => {
      discarded.push(...ids);
    },
  };
  return { outbox, recorded, written, discarded };
}

/**
 * Services over one database in memory, as several instances of the properties service share
 * one: presets stored through one are read and changed through the others. `properties` are
 * stored as the properties service stores them, listed in their clients' lists in that order.
 */
async function instances(
  count: number,
  properties: Array<Pick<PropertyRecord, 'id' | 'client_id' | 'form_preset_id'>> = [],
  events = outboxInMemory(),
) {
  const database = new MemoryDatabase();
  const listed = new Map<number, number>();
  for (const property of properties) {
    const position = (listed.get(property.client_id) ?? 0) + 1;
    listed.set(property.client_id, position);
    await database.collection('properties').insertOne({ _id: String(property.id), ...property, deleted_at: null, version: 0 });
    await database
      .collection('property_list')
      .insertOne({ _id: `${property.client_id}:${position}`, client_id: property.client_id, property_id: property.id });
  }
  let requests = 0;
  const idempotency = { run: (_scope: unknown, work: (key: string) => Promise<unknown>) => work(`message:${++requests}`) };
  const outbox = events.outbox as unknown as EventOutbox;
  return Promise.all(
    Array.from({ length: count }, async () => {
      const storage = new MemoryStorage(database);
      const presets = new FormPresetsRepository(storage, outbox);
      await presets.onModuleInit();
      return new FormPresetsService(presets, idempotency as unknown as Idempotency, new PropertiesRepository(storage, outbox));
    }),
  );
}

const input = (fields: Partial<FormPresetInput> = {}): FormPresetInput => ({
  name: 'Pets welcome',
  questions: [EVICTED],
  ...fields,
});

describe('FormPresetsService', () => {
  it('stores version 1 with the lists left out filled in, under an id no shipped preset has', async () => {
    const [service] = await instances(1);
    const preset = await service.create(CLIENT, { name: 'Bare' }, { messageId: 'm-1' });
    expect(preset).toEqual({
      id: 101,
      version: 1,
      default: false,
      name: 'Bare',
      questions: [],
      disclosures: [],
      sections: [{ kind: 'questions' }],
      documents: [],
    });
    expect(FORM_PRESETS.every(({ id }) => id < preset.id)).toBe(true);
  });

  it('makes each update the next version and keeps every version before it readable as it was', async () => {
    const [service] = await instances(1);
    const { id } = await service.create(CLIENT, input(), { messageId: 'm-1' });
    const pets = { id: 'pets', label: 'Pets?', kind: 'yes_no' as const };
    const second = await service.update(CLIENT, id, { questions: [EVICTED, pets] });
    const third = await service.update(CLIENT, id, { name: 'Renamed' });

    expect([second.version, third.version]).toEqual([2, 3]);
    expect(third.questions.map((q) => q.id)).toEqual(['evicted', 'pets']);
    expect((await service.get(CLIENT, id, 1)).questions).toEqual([{ ...EVICTED }]);
    expect((await service.get(CLIENT, id, 2)).name).toBe('Pets welcome');
    expect(await service.get(CLIENT, id)).toEqual(third);
    await expect(service.get(CLIENT, id, 4)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('makes no version for a change that changes nothing', async () => {
    const [service] = await instances(1);
    const { id } = await service.create(CLIENT, input(), { messageId: 'm-1' });
    expect((await service.update(CLIENT, id, { name: 'Pets welcome' })).version).toBe(1);
  });

  it('keeps every one of many updates racing on several instances, each as its own version', async () => {
    const services = await instances(3);
    const { id } = await services[0].create(CLIENT, input(), { messageId: 'm-1' });
    const names = Array.from({ length: 12 }, (_, i) => `Name ${i}`);
    const answers = await Promise.all(names.map((name, i) => services[i % 3].update(CLIENT, id, { name })));

    expect(answers.map((answer) => answer.version).sort((a, b) => a - b)).toEqual(names.map((_, i) => i + 2));
    const stored = await Promise.all(names.map((_, i) => services[1].get(CLIENT, id, i + 2)));
    expect(stored.map((preset) => preset.name).sort()).toEqual([...names].sort());
    expect((await services[2].get(CLIENT, id)).version).toBe(13);
  });

  it('hides a client’s preset from another client', async () => {
    const [service] = await instances(1);
    const { id } = await service.create(CLIENT, input(), { messageId: 'm-1' });
    for (const attempt of [
      service.get(OTHER, id),
      service.get(OTHER, id, 1),
      service.update(OTHER, id, { name: 'Mine' }),
      service.delete(OTHER, id, undefined, 'message:2'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, message: `form preset ${id} cannot be found` });
    }
    expect(await service.usable(OTHER, id)).toBe(false);
    expect(await service.usable(CLIENT, id)).toBe(true);
  });

  it('offers the shipped presets to every client, and refuses to change or delete them', async () => {
    const [service] = await instances(1);
    expect(await service.get(OTHER, 1)).toBe(FORM_PRESETS[0]);
    expect(await service.usable(OTHER, 2)).toBe(true);
    await expect(service.update(CLIENT, 1, { name: 'Mine' })).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: 'form preset 1 ships with the service and cannot be changed; create a preset of your own instead',
    });
    await expect(service.delete(CLIENT, 2, undefined, 'message:1')).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
  });

  it('refuses to delete a preset a live property of the client names, and deletes it otherwise', async () => {
    const [service] = await instances(1, [
      { id: 5, client_id: CLIENT, form_preset_id: 101 },
      { id: 6, client_id: OTHER, form_preset_id: 102 },
    ]);
    const named = await service.create(CLIENT, input(), { messageId: 'm-1' });
    const free = await service.create(CLIENT, input({ name: 'Free' }), { messageId: 'm-2' });
    await expect(service.delete(CLIENT, named.id, undefined, 'message:3')).rejects.toMatchObject({
      code: ErrorCode.CONFLICT,
      message: 'form preset 101 is the form_preset_id of property 5; give that property another preset before deleting it',
    });

    await service.delete(CLIENT, free.id, undefined, 'message:4');
    // Its retry, after an answer that was lost, answers as the first try did.
    await service.delete(CLIENT, free.id, undefined, 'message:4');
    await expect(service.delete(CLIENT, free.id, undefined, 'message:5')).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(service.get(CLIENT, free.id)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    await expect(service.get(CLIENT, free.id, 1)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await service.usable(CLIENT, free.id)).toBe(false);
    // An applicant who started with it still sees the questions they were asked.
    expect(await service.forForm(CLIENT, free.id, 1)).toMatchObject({ name: 'Free', version: 1 });
    expect(await service.forForm(CLIENT, free.id)).toMatchObject({ name: 'Free', version: 1 });
    expect(await service.forForm(OTHER, free.id)).toBeNull();
  });

  it('lists the client’s presets newest first, then the shipped ones, a page at a time', async () => {
    const [service] = await instances(1);
    for (const name of ['One', 'Two', 'Three']) await service.create(CLIENT, input({ name }), { messageId: name });
    await service.create(OTHER, input({ name: 'Theirs' }), { messageId: 'theirs' });
    await service.delete(CLIENT, 102, undefined, 'message:gone');

    const first = await service.listPage(CLIENT, { limit: 2 });
    expect(first.items.map((preset) => preset.name)).toEqual(['Three', 'One']);
    const before = Number(Buffer.from(first.next_cursor!, 'base64url').toString().slice(3));
    // The rest: every shipped preset, newest first, on one page of their number.
    const second = await service.listPage(CLIENT, { limit: FORM_PRESETS.length, before });
    expect(second.items.map((preset) => preset.id)).toEqual([...FORM_PRESETS].reverse().map((preset) => preset.id));
    expect(second.next_cursor).toBeNull();
    expect((await service.listPage(OTHER, { limit: 25 })).items.map((preset) => preset.name)).toEqual([
      'Theirs',
      ...[...FORM_PRESETS].reverse().map((preset) => preset.name),
    ]);
  });

  it('publishes form_preset.created, updated and deleted once their versions are stored, and none for a lost claim', async () => {
    const events = outboxInMemory();
    const services = await instances(2, [], events);
    const { id } = await services[0].create(CLIENT, input(), { messageId: 'm-1' });
    // Both have read version 1, so that both updates start from it at once.
    await services[1].get(CLIENT, id);
    await Promise.all([services[0].update(CLIENT, id, { name: 'A' }), services[1].update(CLIENT, id, { name: 'B' })]);
    await services[1].delete(CLIENT, id, undefined, 'message:3');

    const published = events.written.map((eventId) => events.recorded.get(eventId));
    expect(published).toEqual([
      { event: 'form_preset.created', data: { form_preset_id: id }, key: `${id}:1` },
      { event: 'form_preset.updated', data: { form_preset_id: id }, key: expect.stringMatching(/:[23]$/) },
      { event: 'form_preset.updated', data: { form_preset_id: id }, key: expect.stringMatching(/:[23]$/) },
      { event: 'form_preset.deleted', data: { form_preset_id: id }, key: `${id}:4` },
    ]);
    // The update that lost version 2 to the other recorded an event for it, and dropped it.
    expect(events.discarded.map((eventId) => events.recorded.get(eventId)?.key)).toEqual([`${id}:2`]);
  });
});
