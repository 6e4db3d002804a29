import { Injectable, PipeTransform } from '@nestjs/common';
import { parseRequest } from './parse';

/**
 * Validates and normalizes a body against its contract class. The gateway uses it on the HTTP
 * body and the services on the message payload, so both ends enforce the same rules.
 */
@Injectable()
export class ContractPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly type: new () => T) {}

  transform(value: unknown): T {
    return parseRequest(this.type, value);
  }
}
