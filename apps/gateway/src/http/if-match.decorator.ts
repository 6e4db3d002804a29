import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The request's `If-Match` header, passed on to the service that compares it; undefined when absent. */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers['if-match'];
  return typeof header === 'string' ? header : undefined;
});
