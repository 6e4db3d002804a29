/** What the reference processes read from their environment, set by the bench that starts them. */
export const ECHO_PATTERN = 'echo';
export const READY_LINE = 'reference ready';

export function referenceSettings(): { amqpUrl: string; queue: string; port: number } {
  const { AMQP_URL, REFERENCE_QUEUE, PORT } = process.env;
  if (!AMQP_URL || !REFERENCE_QUEUE) throw new Error('AMQP_URL and REFERENCE_QUEUE must be set');
  return { amqpUrl: AMQP_URL, queue: REFERENCE_QUEUE, port: Number(PORT ?? 0) };
}
