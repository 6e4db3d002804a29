import { Socket } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How long a stopping HTTP app keeps serving the connections it has: long enough for every
 * keep-alive client that is sending to send once more and be answered `Connection: close`.
 */
export const HTTP_DRAIN_MS = 2000;

/**
 * Makes a stopping HTTP app hang up on its keep-alive clients without cutting a request. The
 * returned function, called on SIGTERM, makes every answer from then on carry `Connection: close`
 * and resolves once every connection has closed, or after `HTTP_DRAIN_MS`; the app is closed then.
 *
 * Closing at once would race the clients: Fastify closes idle keep-alive connections on close, and
 * a client that sends on one as it closes sees its request reset; a request that reaches a closing
 * Fastify on a live connection is answered its own 503, which carries neither the error body nor
 * Retry-After. Kubernetes stops sending new connections to a terminating pod (after its preStop
 * wait), not requests on the connections its clients keep, so those are answered first.
 */
export function drainConnectionsWhenStopping(app: NestFastifyApplication, drainMs = HTTP_DRAIN_MS): () => Promise<void> {
  let stopping = false;
  const open = new Set<Socket>();
  let allClosed: () => void = () => undefined;
  app.getHttpServer().on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0) allClosed();
    });
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) => {
      if (stopping) reply.header('connection', 'close');
      done(null, payload);
    });
  return async () => {
    stopping = true;
    if (open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      allClosed = resolve;
      timer = setTimeout(resolve, drainMs);
    });
    clearTimeout(timer);
  };
}
