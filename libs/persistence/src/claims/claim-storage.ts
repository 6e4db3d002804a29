import { Connection } from 'mongoose';
import {
  Budgets,
  Ids,
  OnceRecords,
  OrderedLists,
  OrderedListsOptions,
  Records,
  RecordsOptions,
  Storage,
  VersionedRecords,
  VersionedSpec,
} from '../storage';
import { DriverBudgets } from './budgets';
import { IdAllocator } from './id-allocator';
import { DriverOnceRecords } from './once-records';
import { DriverOrderedLists } from './ordered-lists';
import { DriverRecords } from './records';
import { DriverVersionedRecords } from './versioned-records';

/**
 * The storage the apps run on: every guarantee kept with inserts under a unique `_id` (claims)
 * and reads by `_id` alone, which MongoDB and the project's FerretDB both make atomic and answer
 * from an index. One per database connection; the id allocator is shared, so that the ids one
 * process hands out are claimed in batches.
 */
export class ClaimStorage extends Storage {
  private allocator?: IdAllocator;

  constructor(private readonly connection: Connection) {
    super();
  }

  records<T extends object>(collection: string, options?: RecordsOptions): Records<T> {
    return new DriverRecords<T>(this.connection, collection, options);
  }

  onceRecords<T extends object>(collection: string): OnceRecords<T> {
    return new DriverOnceRecords<T>(this.connection, collection);
  }

  versionedRecords<S extends object, C extends object>(spec: VersionedSpec<S, C>): VersionedRecords<S, C> {
    return new DriverVersionedRecords<S, C>(this.connection, spec);
  }

  orderedLists<Id extends number | string = number>(collection: string, options?: OrderedListsOptions): OrderedLists<Id> {
    return new DriverOrderedLists<Id>(this.connection, collection, options);
  }

  ids(): Ids {
    this.allocator ??= new IdAllocator(this.connection);
    return this.allocator;
  }

  budgets(collection: string): Budgets {
    return new DriverBudgets(this.connection, collection);
  }
}
