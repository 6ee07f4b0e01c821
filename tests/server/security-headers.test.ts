/**
 * Security headers on every answer (the set @fastify/helmet sends, with the panel's
 * Content-Security-Policy) and CORS closed: no other origin may read the API.
 */
import { expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../server/http/securityHeaders';
import { describeEachDatabase } from './harness';

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
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
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
