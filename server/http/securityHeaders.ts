/**
 * Security headers on every answer through @fastify/helmet, with a Content-Security-Policy the built
 * panel satisfies: scripts only from the panel's own origin (Vite emits no inline script), styles from
 * its origin plus inline ones (Ant Design writes its CSS-in-JS styles into <style> elements at
 * runtime), images and fonts also as data: URLs, calls only to the same origin, no plugins, no
 * framing. CORS stays closed: no Access-Control-Allow-* header is ever sent, so other origins' pages
 * cannot read answers, and preflights get a 404.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

export const securityHeaders = fp(async (app: FastifyInstance) => {
  await app.register(helmet, {
    // helmet's defaults would add upgrade-insecure-requests, which breaks a panel served over plain HTTP.
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers honour it only over HTTPS (behind a TLS-terminating proxy); over plain HTTP it is ignored.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
});
