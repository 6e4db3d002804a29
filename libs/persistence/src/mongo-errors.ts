/** What MongoDB and FerretDB answer alike when an insert meets a unique index. */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number } | null)?.code === 11000;
}

/** Resolves true once `insert` stored its document, false if the key was taken; rethrows the rest. */
export function claimed(insert: Promise<unknown>): Promise<boolean> {
  return insert.then(
    () => true,
    (error: unknown) => {
      if (isDuplicateKey(error)) return false;
      throw error;
    },
  );
}

/** For `createCollection().catch(...)`: a collection that exists already is what was wanted. */
export function ignoreExistingCollection(error: { codeName?: string; code?: number }): void {
  if (error.code === 48 || error.codeName === 'NamespaceExists') return;
  throw error;
}
