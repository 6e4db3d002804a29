import { Controller, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';

export interface Pong {
  pong: true;
}

/**
 * A message controller answering `pattern` at once: whoever pings learns that an instance of
 * the service is consuming its queue.
 */
export function pingController(pattern: string): Type<unknown> {
  @Controller()
  class PingMessageController {
    @MessagePattern(pattern)
    ping(): Pong {
      return { pong: true };
    }
  }
  return PingMessageController;
}
