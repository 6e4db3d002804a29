import { randomBytes } from 'node:crypto';
import { DOMAIN_EVENTS } from '@app/contracts';
import { Stack } from '../tools/stack';
import { EventTap } from './support/events';
import { api, Api } from './support/http';
import { scrape, valueOf } from './support/metrics';
import { eventually } from './support/wait';

/** A stack started with `env` for the tests of one describe, its API client and a tap on its events. */
function stackWithTap(env: Record<string, string>): { stack: Stack; client: Api; tap: EventTap } {
  const running = {} as { stack: Stack; client: Api; tap: EventTap };
  beforeAll(async () => {
    running.stack = await Stack.start({ env });
    running.client = api(running.stack.url);
    running.tap = await EventTap.open(running.stack.namespace);
  });
  afterAll(async () => {
    await running.tap?.close();
    await running.stack?.stop();
  });
  return running;
}

const applicant = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', reference_id: 'crm-7' };

describe('domain events', () => {
  describe('every change publishes its event once written', () => {
    let stack: Stack;
    let client: Api;
    let tap: EventTap;

    beforeAll(async () => {
      // No pass over the outbox after the one at boot: every event below is published because its
      // writer said it was written.
      stack = await Stack.start({ env: { EVENT_RELAY_INTERVAL_MS: '3600000' } });
      client = api(stack.url);
      tap = await EventTap.open(stack.namespace);
    });

    afterAll(async () => {
      await tap?.close();
      await stack?.stop();
    });

    it('publishes property, floor plan, application and applicant events with the ids that apply', async () => {
      const property = (await client.post('/api/v2/properties', { property: { name: 'Maple Court' } })).body.property;
      expect((await client.patch(`/api/v2/properties/${property.id}`, { property: { city: 'Boston' } })).status).toBe(200);
      const plans = `/api/v2/properties/${property.id}/floor_plans`;
      const plan = (await client.post(plans, { floor_plan: { name: '2 bed', beds: 2 } })).body.floor_plan;
      expect((await client.patch(`${plans}/${plan.id}`, { floor_plan: { rent: 2000 } })).status).toBe(200);
      expect((await client.delete(`${plans}/${plan.id}`)).status).toBe(200);
      const application = (await client.post('/api/v2/applications', { application: { property_id: property.id, applicant } }))
        .body.application;
      const co = (
        await client.post(`/api/v2/applications/${application.id}/applicants`, {
          applicant: { ...applicant, first_name: 'Bea', reference_id: null },
        })
      ).body.applicant;
      expect((await client.delete(`/api/v2/properties/${property.id}`)).status).toBe(200);

      const expected = {
        'property.created': [{ property_id: property.id }],
        'property.updated': [{ property_id: property.id }],
        'floor_plan.created': [{ property_id: property.id, floor_plan_id: plan.id }],
        'floor_plan.updated': [{ property_id: property.id, floor_plan_id: plan.id }],
        'floor_plan.deleted': [{ property_id: property.id, floor_plan_id: plan.id }],
        'property.deleted': [{ property_id: property.id }],
        'application.created': [{ application_id: application.id, property_id: property.id }],
        'applicant.created': [
          {
            applicant_id: application.applicants[0].id,
            application_id: application.id,
            property_id: property.id,
            reference_id: 'crm-7',
          },
          { applicant_id: co.id, application_id: application.id, property_id: property.id, reference_id: null },
        ],
      };
      await eventually('every event published', () =>
        Object.entries(expected).every(([name, data]) => tap.named(name).length === data.length),
      );
      for (const [name, data] of Object.entries(expected)) {
        expect(tap.named(name).map((event) => event.data)).toEqual(expect.arrayContaining(data));
      }
      for (const event of tap.received) {
        expect(DOMAIN_EVENTS).toContain(event.event);
        expect(tap.routingKeys[tap.received.indexOf(event)]).toBe(event.event);
        expect(event).toEqual({
          id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
          event: event.event,
          client_id: 1,
          test_mode: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
          data: event.data,
        });
      }
      // Counted as the relay takes them out of the outbox (just after publishing): every one on
      // its writer's word, none by a pass.
      const relayed = async (service: 'properties' | 'applications', found: string) =>
        valueOf(await scrape(stack.process(service).httpUrl), 'events_relayed_total', { outcome: 'published', found });
      await eventually('the relayed events counted', async () => (await relayed('properties', 'on_write')) === 6);
      await eventually('the relayed events counted', async () => (await relayed('applications', 'on_write')) === 3);
      expect(await relayed('properties', 'pass')).toBe(0);
      expect(await relayed('applications', 'pass')).toBe(0);
    });

    it('publishes nothing for a change refused before any write', async () => {
      const before = tap.received.length;
      expect((await client.patch('/api/v2/properties/999999', { property: { city: 'Nowhere' } })).status).toBe(404);
      const marker = (await client.post('/api/v2/properties', { property: { name: 'Marker' } })).body.property;
      await eventually('the marker event', () =>
        tap.named('property.created').some((event) => event.data.property_id === marker.id),
      );
      expect(tap.received.slice(before).map((event) => event.event)).toEqual(['property.created']);
    });
  });

  describe('a writer SIGKILLed between its write and its publish', () => {
    let stack: Stack;
    let client: Api;
    let tap: EventTap;

    beforeAll(async () => {
      // The relay passes once at boot, then not for an hour, and publishes nothing said written: every
      // write below stays unpublished.
      stack = await Stack.start({ env: { EVENT_RELAY_INTERVAL_MS: '3600000', EVENT_RELAY_ON_WRITE: 'false' } });
      client = api(stack.url);
      tap = await EventTap.open(stack.namespace);
    });

    afterAll(async () => {
      await tap?.close();
      await stack?.stop();
    });

    it('loses no event, and the instance that comes next publishes none for a write that never happened', async () => {
      const property = (await client.post('/api/v2/properties', { property: { name: 'Killed before publishing' } })).body
        .property;
      expect((await client.patch(`/api/v2/properties/${property.id}`, { property: { zip: '02139' } })).status).toBe(200);
      const application = (await client.post('/api/v2/applications', { application: { property_id: property.id, applicant } }))
        .body.application;

      // What a writer killed after recording its event and before its write leaves behind.
      const properties = await stack.database('properties');
      const orphan = 'evt_00000000000000000000000000000001';
      await properties.collection('event_outbox').insertOne({
        _id: orphan as never,
        event: {
          id: orphan,
          event: 'property.updated',
          client_id: 1,
          test_mode: false,
          created_at: '',
          data: { property_id: property.id },
        },
        witness: { collection: 'property_versions', key: `${property.id}:99` },
        recorded_at: new Date(Date.now() - 1000),
      });

      await stack.signal(stack.process('properties'), 'SIGKILL');
      await stack.signal(stack.process('applications'), 'SIGKILL');
      expect(tap.received).toEqual([]);

      const restart = { EVENT_RELAY_INTERVAL_MS: '100', EVENT_DROP_AFTER_SECONDS: '1' };
      await Promise.all([stack.startApp('properties', restart), stack.startApp('applications', restart)]);
      await eventually('the events of the writes before the kill', () =>
        ['property.created', 'property.updated', 'application.created', 'applicant.created'].every(
          (name) => tap.named(name).length === 1,
        ),
      );
      expect(tap.named('property.updated')[0].data).toEqual({ property_id: property.id });
      expect(tap.named('application.created')[0].data).toEqual({ application_id: application.id, property_id: property.id });

      await eventually(
        'the orphan dropped from the outbox',
        async () => !(await properties.collection('event_outbox').findOne({ _id: orphan as never })),
      );
      expect(tap.received.map((event) => event.id)).not.toContain(orphan);
      // What the restarted instances' passes over the outbox took out of it, counted just after.
      const relayed = async (service: 'properties' | 'applications', outcome: string) =>
        valueOf(await scrape(stack.process(service).httpUrl), 'events_relayed_total', { outcome, found: 'pass' });
      await eventually('the events published by a pass counted', async () => (await relayed('properties', 'published')) === 2);
      await eventually('the orphan dropped by a pass counted', async () => (await relayed('properties', 'dropped')) === 1);
      await eventually('the events published by a pass counted', async () => (await relayed('applications', 'published')) === 2);
      await properties.close();
    });
  });

  describe('an instance idle after a write', () => {
    // A short deadline for every message, and passes over the outbox every 200 ms: the deadline
    // of the one write below passes long before the events a dead writer left are due.
    const running = stackWithTap({ RPC_TIMEOUT_MS: '1000', EVENT_RELAY_INTERVAL_MS: '200' });

    /**
     * What a writer killed right after its write leaves behind: its event in the outbox and its
     * witness showing the event's id. It becomes due for a pass `dueInMs` from now, so that no pass
     * before then can publish it.
     */
    async function deadWritersEvent(propertyId: number, dueInMs: number): Promise<string> {
      const database = await running.stack.database('properties');
      const id = `evt_${randomBytes(16).toString('hex')}`;
      const witness = { collection: 'idle_witnesses', key: id };
      await database.collection(witness.collection).insertOne({ _id: witness.key as never, event_ids: [id] });
      await database.collection('event_outbox').insertOne({
        _id: id as never,
        event: {
          id,
          event: 'property.updated',
          client_id: 1,
          test_mode: false,
          created_at: '',
          data: { property_id: propertyId },
        },
        witness,
        recorded_at: new Date(Date.now() + dueInMs - 200),
      });
      await database.close();
      return id;
    }

    const relayFailures = () =>
      running.stack.process('properties').logs.filter((line) => String(line.msg).startsWith('relaying events failed'));

    it("publishes a dead writer's event with no request arriving after the last write's deadline", async () => {
      const property = (await running.client.post('/api/v2/properties', { property: { name: 'Idle afterwards' } })).body.property;
      await eventually('the write published', () => running.tap.named('property.created').length === 1);
      // Due 1.5 s after a write whose deadline was 1 s: only a pass made after that deadline finds it.
      const id = await deadWritersEvent(property.id, 1500);
      await eventually('the dead writer published', () => running.tap.received.some((event) => event.id === id));
    });

    it('logs no relay failure while idle', async () => {
      const id = await deadWritersEvent(1, 2000);
      // Published by a pass some ten passes from now: all of them happened by then.
      await eventually('the second dead writer published', () => running.tap.received.some((event) => event.id === id));
      expect(relayFailures()).toEqual([]);
    });
  });
});
