import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderedLists, Storage } from '@app/persistence';

export interface ListedApplication {
  position: number;
  application_id: number;
}

/** Which list: all of a client's applications, or those of one of its properties. */
export interface ApplicationList {
  clientId: number;
  propertyId?: number;
}

/**
 * The lists of applications, newest first, read without scanning (OrderedLists): the client's
 * `c<client id>` and each property's `p<client id>:<property id>`. An entry is written before its
 * application, with the application's id; an entry whose application is missing (being created, a
 * create that failed, or the repeat of a request whose first try stored the application) is
 * skipped by readers, so a list never shows an application twice.
 */
@Injectable()
export class ApplicationLists implements OnModuleInit {
  private readonly lists: OrderedLists;

  constructor(storage: Storage) {
    this.lists = storage.orderedLists('application_index', { field: 'application_id' });
  }

  onModuleInit(): Promise<void> {
    return this.lists.prepare();
  }

  /** Puts a new application at the head of its client's list and of its property's. */
  async add(clientId: number, propertyId: number, applicationId: number): Promise<void> {
    await Promise.all([
      this.lists.append(listName({ clientId }), applicationId),
      this.lists.append(listName({ clientId, propertyId }), applicationId),
    ]);
  }

  /** The newest position of the list; 0 when it is empty. */
  head(list: ApplicationList): Promise<number> {
    return this.lists.head(listName(list));
  }

  /** Up to `count` entries from position `from` downwards, newest first. */
  async read(list: ApplicationList, from: number, count: number): Promise<ListedApplication[]> {
    const entries = await this.lists.read(listName(list), from, count);
    return entries.map(({ position, id }) => ({ position, application_id: id }));
  }
}

function listName({ clientId, propertyId }: ApplicationList): string {
  return propertyId === undefined ? `c${clientId}` : `p${clientId}:${propertyId}`;
}
