import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { VIEWS_DIR } from './pages';

/** The files the form's pages load, read once at start and served from memory. */
const ASSETS = {
  'form.css': { type: 'text/css; charset=utf-8', maxAge: 3600 },
  'favicon.svg': { type: 'image/svg+xml', maxAge: 86400 },
  // The SSN's show/hide button, which the form does without.
  'reveal.js': { type: 'text/javascript; charset=utf-8', maxAge: 3600 },
  // The documents page's upload progress, which the form does without.
  'documents.js': { type: 'text/javascript; charset=utf-8', maxAge: 3600 },
} as const;

type Asset = keyof typeof ASSETS;

/** The paths of the form's static files: served from memory, they ask no service. */
export const STATIC_ASSET_PATHS: readonly string[] = Object.keys(ASSETS).map((name) => `/${name}`);

@Controller()
export class StaticAssetsHttpController {
  private readonly bodies = new Map(Object.keys(ASSETS).map((name) => [name, readFileSync(join(VIEWS_DIR, name), 'utf8')]));

  @Get('form.css')
  stylesheet(@Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, 'form.css');
  }

  @Get('favicon.svg')
  favicon(@Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, 'favicon.svg');
  }

  @Get('reveal.js')
  reveal(@Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, 'reveal.js');
  }

  @Get('documents.js')
  documents(@Res() reply: FastifyReply): FastifyReply {
    return this.send(reply, 'documents.js');
  }

  private send(reply: FastifyReply, name: Asset): FastifyReply {
    const { type, maxAge } = ASSETS[name];
    return reply.type(type).header('cache-control', `public, max-age=${maxAge}`).send(this.bodies.get(name));
  }
}
