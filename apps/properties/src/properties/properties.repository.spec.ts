import { Model } from 'mongoose';
import { PropertiesRepository } from './properties.repository';
import { PropertyRecord } from './property.schema';

const CLIENT = 7;
const AT = new Date('2026-03-02T09:30:00.000Z');

function stored(overrides: Partial<PropertyRecord> = {}) {
  return { _id: '3', id: 3, client_id: CLIENT, name: 'Maple Court', deleted_at: null, ...overrides } as PropertyRecord & {
    _id: string;
  };
}

/** The two collections the repository uses, behind the parts of a mongoose model it reads. */
function collections() {
  const properties = { findOne: jest.fn(), updateOne: jest.fn().mockResolvedValue({ modifiedCount: 1 }) };
  const deletions = { insertOne: jest.fn().mockResolvedValue({ acknowledged: true }) };
  const model = {
    collection: { collectionName: 'properties' },
    db: {
      db: { collection: jest.fn(() => properties) },
      collection: jest.fn((name: string) => {
        if (name !== 'property_deletions') throw new Error(`unexpected collection ${name}`);
        return deletions;
      }),
    },
  };
  return { properties, deletions, repository: new PropertiesRepository(model as unknown as Model<PropertyRecord>) };
}

const duplicateKey = () => Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });

describe('PropertiesRepository', () => {
  describe('findLive', () => {
    it('reads by the document key alone and answers the live property of the client', async () => {
      const { properties, repository } = collections();
      properties.findOne.mockResolvedValue(stored());
      await expect(repository.findLive(CLIENT, 3)).resolves.toMatchObject({ id: 3, name: 'Maple Court' });
      expect(properties.findOne).toHaveBeenCalledWith({ _id: '3' });
    });

    it.each([
      ['an unknown id', null],
      ["another client's property", stored({ client_id: 8 })],
      ['a deleted property', stored({ deleted_at: AT })],
    ])('answers null for %s', async (_label, found) => {
      const { properties, repository } = collections();
      properties.findOne.mockResolvedValue(found);
      await expect(repository.findLive(CLIENT, 3)).resolves.toBeNull();
    });
  });

  describe('markDeleted', () => {
    it('claims the deletion, marks the property and answers with it as it was', async () => {
      const { properties, deletions, repository } = collections();
      properties.findOne.mockResolvedValue(stored());

      await expect(repository.markDeleted(CLIENT, 3, AT)).resolves.toMatchObject({ id: 3, deleted_at: null });
      expect(deletions.insertOne).toHaveBeenCalledWith({ _id: '3', at: AT });
      expect(properties.updateOne).toHaveBeenCalledTimes(1);
      expect(properties.updateOne).toHaveBeenCalledWith({ _id: '3' }, { $set: { deleted_at: AT, updated_at: AT } });
    });

    it.each([
      ['an unknown id', null],
      ["another client's property", stored({ client_id: 8 })],
      ['a property deleted before', stored({ deleted_at: AT })],
    ])('answers null for %s, claiming and writing nothing', async (_label, found) => {
      const { properties, deletions, repository } = collections();
      properties.findOne.mockResolvedValue(found);

      await expect(repository.markDeleted(CLIENT, 3, AT)).resolves.toBeNull();
      expect(deletions.insertOne).not.toHaveBeenCalled();
      expect(properties.updateOne).not.toHaveBeenCalled();
    });

    it('answers null to the loser of a race, which still finishes marking an unmarked property', async () => {
      const { properties, deletions, repository } = collections();
      properties.findOne.mockResolvedValue(stored());
      deletions.insertOne.mockRejectedValue(duplicateKey());

      await expect(repository.markDeleted(CLIENT, 3, AT)).resolves.toBeNull();
      expect(properties.updateOne).toHaveBeenCalledWith(
        { _id: '3', deleted_at: null },
        { $set: { deleted_at: AT, updated_at: AT } },
      );
    });

    it('lets any other failure of the claim through, marking nothing', async () => {
      const { properties, deletions, repository } = collections();
      properties.findOne.mockResolvedValue(stored());
      deletions.insertOne.mockRejectedValue(new Error('connection reset'));

      await expect(repository.markDeleted(CLIENT, 3, AT)).rejects.toThrow('connection reset');
      expect(properties.updateOne).not.toHaveBeenCalled();
    });
  });
});
