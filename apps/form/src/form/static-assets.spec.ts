import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { assetPath, chooseEncoding, staticAsset } from './static-assets';
import { VIEWS_DIR } from './views';

describe('the form’s static assets', () => {
  const stylesheet = readFileSync(join(VIEWS_DIR, 'form.css'));

  it('are linked under a path that names their content', () => {
    const digest = createHash('sha256').update(stylesheet).digest('hex');
    expect(assetPath('form.css')).toBe(`/assets/${digest.slice(0, 12)}/form.css`);
    expect(assetPath('reveal.js')).not.toContain(digest.slice(0, 12));
  });

  it('are kept compressed with brotli and gzip, each smaller and the same bytes once opened', () => {
    const asset = staticAsset('form.css')!;
    expect(asset.bodies.identity.equals(stylesheet)).toBe(true);
    expect(brotliDecompressSync(asset.bodies.br).equals(stylesheet)).toBe(true);
    expect(gunzipSync(asset.bodies.gzip).equals(stylesheet)).toBe(true);
    expect(asset.bodies.br.length).toBeLessThan(stylesheet.length / 2);
    expect(asset.bodies.gzip.length).toBeLessThan(stylesheet.length / 2);
  });

  it('know no other name', () => {
    expect(staticAsset('app.module.js')).toBeUndefined();
    expect(staticAsset('../main.js')).toBeUndefined();
  });
});

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['BR', 'br'],
    ['gzip;q=0', 'identity'],
    ['deflate', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
  ])('sends %p the %s bytes', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});
