/**
 * How the built panel is sent: the build's brotli or gzip copy by Accept-Encoding, hashed files
 * cached for good, index.html (also for client routes) revalidated, the API untouched. A small built
 * panel is faked in a temporary folder and precompressed the way the Vite build does it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFiles } from '../../scripts/precompress';
import { startTestServer } from './harness';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const FILES: Record<string, string> = {
  'index.html': `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`,
  'assets/index-Ab12Cd34.js': `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}` })))};`,
  'assets/tiny-Ef56Gh78.js': 'export const tiny = 1;',
};
const decoders: Record<string, (data: Buffer) => Buffer> = {
  br: zlib.brotliDecompressSync,
  gzip: zlib.gunzipSync,
};

describe('the built panel', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-dist-'));
  let app: FastifyInstance;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    await precompressFiles(dir, Object.keys(FILES));
    const started = await startTestServer('sqlite', {}, dir);
    app = started.ctx.app;
    stop = started.stop;
  });
  afterAll(async () => {
    await stop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  it('writes brotli and gzip copies beside files worth compressing, none beside tiny ones', () => {
    for (const file of ['index.html', 'assets/index-Ab12Cd34.js']) {
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${file}.br`))).toString()).toBe(FILES[file]);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${file}.gz`))).toString()).toBe(FILES[file]);
    }
    expect(fs.existsSync(path.join(dir, 'assets/tiny-Ef56Gh78.js.br'))).toBe(false);
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['*', 'gzip'],
  ])('sends a hashed file precompressed for Accept-Encoding %s (%s), cached for good', async (accept, encoding) => {
    const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': accept });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(FILES['assets/index-Ab12Cd34.js'].length / 2);
    expect(decoders[encoding](res.rawPayload).toString()).toBe(FILES['assets/index-Ab12Cd34.js']);
  });

  it.each([[{}], [{ 'accept-encoding': 'identity' }], [{ 'accept-encoding': 'deflate' }]])(
    'sends a hashed file as it is when the client takes no brotli or gzip (%o)',
    async (headers) => {
      const res = await get('/assets/index-Ab12Cd34.js', headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
      expect(res.payload).toBe(FILES['assets/index-Ab12Cd34.js']);
    },
  );

  it('sends a file too small to compress as it is, still cached for good', async () => {
    const res = await get('/assets/tiny-Ef56Gh78.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.payload).toBe(FILES['assets/tiny-Ef56Gh78.js']);
  });

  it.each(['/', '/index.html', '/users', '/resellers/7/edit', '/no/such/page'])('sends index.html for %s compressed and revalidated (no-cache)', async (url) => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const res = await get(url, accept ? { 'accept-encoding': accept } : {});
      expect(res.statusCode, `${url} ${accept}`).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe(encoding);
      expect((encoding ? decoders[encoding](res.rawPayload) : res.rawPayload).toString()).toBe(FILES['index.html']);
    }
  });

  it('answers a revalidation of index.html with 304 while it is unchanged', async () => {
    const first = await get('/users', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toBeTruthy();
    const again = await get('/users', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing hashed file 404, not index.html', async () => {
    const res = await get('/assets/index-OldBuild1.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('leaves API answers alone: no precompressed body, no long caching, 404 JSON under /api', async () => {
    const health = await get('/api/v1/health', { 'accept-encoding': 'br, gzip' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers['cache-control']).toBeUndefined();
    expect(health.json()).toMatchObject({ status: expect.any(String) });
    const missing = await get('/api/v1/no-such-thing', { 'accept-encoding': 'br, gzip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });
});
