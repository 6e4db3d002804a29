import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { previousReleaseSha } from '../scripts/previous-release';
import {
  commitContracts,
  contractShapes,
  ContractShapes,
  incompatibleChanges,
  readSnapshot,
  SNAPSHOTS,
  workingTreeContracts,
} from './contract-shapes';

/**
 * The promise of docs/contributors/architecture.md ("What may change between two releases"), held against
 * the previous release's contracts: the processes of both run side by side during every deploy.
 */
describe('contracts against the previous release', () => {
  const previousRelease = previousReleaseSha();
  const current = contractShapes(workingTreeContracts());

  it('has a snapshot of the previous release, made from its commit', () => {
    const path = join(SNAPSHOTS, `${previousRelease}.json`);
    expect({ path, exists: existsSync(path) }).toEqual({ path, exists: true });
    expect(readSnapshot(previousRelease)).toEqual(contractShapes(commitContracts(previousRelease)));
  });

  it('changes nothing the previous release relies on', () => {
    expect(incompatibleChanges(readSnapshot(previousRelease), current)).toEqual([]);
  });

  it('reads the shapes that cross the wire', () => {
    expect(current.patterns['PROPERTIES.CREATE']).toBe('properties.create');
    expect(current.events).toContain('application.created');
    expect(current.types.CreateApplicationMessage).toMatchObject({
      client_id: { type: 'number', required: true },
      idempotency_key: { type: 'string | undefined', required: false },
      sealed_applicant: { type: 'SealedApplicantFields', required: true },
    });
    expect(current.types.PropertyInput.name).toEqual({
      type: 'string',
      required: true,
      check: 'StringField({ required: true, trim: true, min: 1, max: 255 })',
    });
    expect(current.types.PropertyInput.kind.type).toBe('"multi_family" | "single_family" | "generic" | undefined');
  });

  describe('names each incompatible change', () => {
    const changed = (change: (shapes: ContractShapes) => void): string[] => {
      const next = structuredClone(current);
      change(next);
      return incompatibleChanges(current, next);
    };

    it('a pattern removed or renamed', () => {
      expect(changed((s) => delete s.patterns['PROPERTIES.LOOKUP']).join()).toMatch(/pattern PROPERTIES.LOOKUP .* removed/);
      expect(changed((s) => (s.patterns['PROPERTIES.GET'] = 'properties.read'))).toEqual([
        "pattern PROPERTIES.GET changed from 'properties.get' to 'properties.read'",
      ]);
    });

    it('an event removed', () => {
      expect(changed((s) => (s.events = s.events.filter((e) => e !== 'applicant.removed')))).toEqual([
        'event applicant.removed removed',
      ]);
    });

    it('a field removed, retyped, made required or checked otherwise, and a new required field', () => {
      expect(changed((s) => delete s.types.EventData.document_id)).toEqual(['EventData.document_id removed']);
      expect(changed((s) => (s.types.DomainEvent.client_id.type = 'string'))).toEqual([
        'DomainEvent.client_id retyped from number to string',
      ]);
      expect(changed((s) => (s.types.CreateMessage.idempotency_key.required = true))).toEqual([
        'CreateMessage.idempotency_key made required',
      ]);
      expect(changed((s) => (s.types.PropertyInput.name.check = 'StringField({ required: true, max: 100 })')).join()).toMatch(
        /PropertyInput.name checked as .*max: 100/,
      );
      expect(changed((s) => (s.types.ClientScoped.tenant = { type: 'string', required: true }))).toEqual([
        'ClientScoped.tenant added as required',
      ]);
    });

    it('an enum value taken away, but not one added', () => {
      const kinds = '"multi_family" | "single_family" | "generic" | undefined';
      expect(changed((s) => (s.types.PropertyInput.kind.type = kinds.replace(' | "generic"', '')))).toEqual([
        `PropertyInput.kind retyped from ${kinds} to ${kinds.replace(' | "generic"', '')}`,
      ]);
      expect(changed((s) => (s.types.PropertyInput.kind.type = kinds.replace('undefined', '"townhouse" | undefined')))).toEqual(
        [],
      );
    });

    it('but not an addition', () => {
      expect(
        changed((s) => {
          s.patterns['PROPERTIES.ARCHIVE'] = 'properties.archive';
          s.events.push('property.archived');
          s.types.DomainEvent.event.type = `${s.types.DomainEvent.event.type} | "property.archived"`;
          s.types.EventData.unit_id = { type: 'number | undefined', required: false };
          s.types.ArchivePropertyMessage = { id: { type: 'number', required: true } };
        }),
      ).toEqual([]);
    });
  });
});
