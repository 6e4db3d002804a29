import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { VIEWS_DIR } from './views';

/** The files the form's pages load, by name, with their media type. */
const TYPES = {
  'form.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  // The SSN's show/hide button, which the form does without.
  'reveal.js': 'text/javascript; charset=utf-8',
  // The documents page's upload progress, which the form does without.
  'documents.js': 'text/javascript; charset=utf-8',
  // A page answering a POST turned into a plain visit in the history (Back does not resend it).
  'history.js': 'text/javascript; charset=utf-8',
} as const;

export type AssetName = keyof typeof TYPES;

/** The encodings an asset is kept in, the preferred first. */
export type Encoding = 'br' | 'gzip' | 'identity';

export interface StaticAsset {
  type: string;
  /** Names the content: a page links `/assets/<version>/<name>`, which a browser may keep for good. */
  version: string;
  bodies: Record<Encoding, Buffer>;
}

/** The assets read once from the build, each compressed once. */
let loaded: Map<string, StaticAsset> | undefined;

function assets(): Map<string, StaticAsset> {
  loaded ??= new Map(
    Object.entries(TYPES).map(([name, type]) => {
      const identity = readFileSync(join(VIEWS_DIR, name));
      const version = createHash('sha256').update(identity).digest('hex').slice(0, 12);
      const br = brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } });
      return [name, { type, version, bodies: { br, gzip: gzipSync(identity, { level: 9 }), identity } }];
    }),
  );
  return loaded;
}

/** The asset called `name`, or undefined for a name that is none. */
export function staticAsset(name: string): StaticAsset | undefined {
  return assets().get(name);
}

/** The path a page links an asset by: it changes whenever the asset does. */
export function assetPath(name: AssetName): string {
  return `/assets/${assets().get(name)!.version}/${name}`;
}

/** The asset names, for the paths that serve them under their plain names too. */
export const ASSET_NAMES = Object.keys(TYPES) as AssetName[];

/**
 * The encoding to send for an `Accept-Encoding` header: brotli, else gzip, when the client takes
 * it (a `q=0` refuses); the bytes as they are otherwise.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    if (coding && (q === undefined || Number(q) > 0)) accepted.add(coding);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
