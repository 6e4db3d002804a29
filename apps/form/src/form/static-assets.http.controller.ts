import { Controller, Get, Headers, NotFoundException, Param, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { ASSET_NAMES, chooseEncoding, staticAsset } from './static-assets';

/** A year: a versioned asset never changes under its path. */
const VERSIONED_MAX_AGE = 31_536_000;
/** Under its plain name (pages from before versioned paths), an asset may change with a deploy. */
const PLAIN_MAX_AGE = 3600;
const VERSIONED_PATH = '/assets/:version/:name';

/** The paths of the form's static files: served from memory, they ask no service. */
export const STATIC_ASSET_PATHS: readonly string[] = [VERSIONED_PATH, ...ASSET_NAMES.map((name) => `/${name}`)];

/**
 * The stylesheet, icon and scripts, from memory, compressed when the browser takes it. Pages
 * link each under a path naming its content, cached for a year; during a rolling deploy an
 * instance may be asked for another version than its own, which it answers with what it has,
 * not to be kept.
 */
@Controller()
export class StaticAssetsHttpController {
  @Get(VERSIONED_PATH)
  versioned(
    @Param('version') version: string,
    @Param('name') name: string,
    @Headers('accept-encoding') acceptEncoding: string | undefined,
    @Res() reply: FastifyReply,
  ): FastifyReply {
    const asset = staticAsset(name);
    if (!asset) throw new NotFoundException();
    const caching = version === asset.version ? `public, max-age=${VERSIONED_MAX_AGE}, immutable` : 'no-cache';
    return this.send(reply, name, caching, acceptEncoding);
  }

  @Get(ASSET_NAMES.map((name) => name))
  plain(@Headers('accept-encoding') acceptEncoding: string | undefined, @Res() reply: FastifyReply): FastifyReply {
    const name = new URL(reply.request.url, 'http://form').pathname.slice(1);
    return this.send(reply, name, `public, max-age=${PLAIN_MAX_AGE}`, acceptEncoding);
  }

  private send(reply: FastifyReply, name: string, caching: string, acceptEncoding: string | undefined): FastifyReply {
    const asset = staticAsset(name)!;
    const encoding = chooseEncoding(acceptEncoding);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type(asset.type).header('cache-control', caching).header('vary', 'accept-encoding').send(asset.bodies[encoding]);
  }
}
