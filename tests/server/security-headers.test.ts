/**
 * Security headers on every answer (helmet's, with the panel's Content-Security-Policy) and
 * CORS closed: no other origin may read the API.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { COLOR_SCHEME_BOOT } from '../../src/contract/colorSchemeBoot';
import { describeEachDatabase } from './harness';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  // Scripts from the panel's origin, and index.html's one inline script by its hash.
  `script-src 'self' 'sha256-${createHash('sha256').update(COLOR_SCHEME_BOOT).digest('base64')}'`,
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join(';');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describeEachDatabase('security headers and CORS', (ctx) => {
  it('sends the security headers on answers of every kind: 2xx, 401, 404, 422, 400', async () => {
    const admin = await ctx.as('admin');
    const answers = [
      await ctx.anonymous.get('/health'),
      await ctx.anonymous.get('/user'),
      await admin.get('/no-such-route'),
      await ctx.anonymous.post('/login', {}),
      await ctx.anonymous.request('POST', '/login', '{"a":', { 'content-type': 'application/json' }),
      await ctx.anonymous.request('GET', '/api/docs/json'),
    ];
    for (const res of answers) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), `${res.status} ${name}`).toBe(value);
    }
  });

  it('keeps CORS closed: no Access-Control-Allow-* for another origin, preflights refused', async () => {
    const admin = await ctx.as('admin');
    const origin = { origin: 'https://evil.example' };
    const read = await admin.request('GET', '/managers', undefined, origin);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await ctx.anonymous.request('OPTIONS', '/managers', undefined, {
      ...origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.status).toBeLessThan(500);
    for (const header of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers']) {
      expect(preflight.headers.get(header), header).toBeNull();
    }
  });
});
