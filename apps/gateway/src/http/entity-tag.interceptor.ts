import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { entityTag, tagListMatches } from '@app/contracts';

/**
 * For a GET of one resource (`{"property": {...}}`): the `ETag` of its representation, and 304
 * with no body when `If-None-Match` names it. The tag is the one a service compares `If-Match`
 * with (entityTag in libs/contracts), so a tag read here can guard a PATCH or DELETE.
 */
@Injectable()
export class EntityTagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((body: Record<string, unknown>) => {
        const tag = entityTag(Object.values(body)[0]);
        reply.header('etag', tag);
        const ifNoneMatch = request.headers['if-none-match'];
        if (typeof ifNoneMatch === 'string' && tagListMatches(ifNoneMatch, tag)) {
          reply.status(304);
          return undefined;
        }
        return body;
      }),
    );
  }
}
