export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __mongod?: { stop(): Promise<boolean> } }).__mongod?.stop();
}
