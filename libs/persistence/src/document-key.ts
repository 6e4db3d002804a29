/**
 * A resource's public id as its document key, in text: a filter on `_id` alone is the one that
 * FerretDB answers from an index (string and ObjectId keys, not numbers; `$in` of them in the
 * project's build); any other filter reads and decodes every document of the collection.
 */
export function documentKey(id: number): string {
  return String(id);
}
