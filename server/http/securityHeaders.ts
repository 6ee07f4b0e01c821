/**
 * Security headers on every answer, the set @fastify/helmet sends by default, with a
 * Content-Security-Policy the built panel satisfies: scripts only from the panel's own origin (Vite
 * emits no inline script), styles from its origin plus inline ones (Ant Design writes its CSS-in-JS
 * styles into <style> elements at runtime), images and fonts also as data: URLs, calls only to the
 * same origin, no plugins, no framing. CORS stays closed: no Access-Control-Allow-* header is ever
 * sent, so other origins' pages cannot read answers, and preflights get a 404.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "script-src 'self'",
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
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  // Browsers honour it only over HTTPS (behind a TLS-terminating proxy); over plain HTTP it is ignored.
  'strict-transport-security': 'max-age=31536000',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

export const securityHeaders = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
});
