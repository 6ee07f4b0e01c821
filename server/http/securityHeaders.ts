/**
 * Security headers on every answer, as helmet sets them, with a Content-Security-Policy the built
 * panel satisfies: scripts only from the panel's own origin (Vite emits no inline script) and the one
 * inline script of index.html that paints a dark user's page dark before the scripts arrive, by its hash; styles from
 * its origin plus inline ones (Ant Design writes its CSS-in-JS styles into <style> elements at
 * runtime), images and fonts also as data: URLs, calls only to the same origin, no plugins, no
 * framing. CORS stays closed: no Access-Control-Allow-* header is ever sent, so other origins' pages
 * cannot read answers, and preflights get a 404.
 * The headers are the same for every answer (no nonces), so helmet computes them once at start-up:
 * @fastify/helmet rebuilt helmet, parsing the policy again, for each request.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { COLOR_SCHEME_BOOT } from '../../src/contract/colorSchemeBoot';

/** A script allowed by its hash: the one inline script index.html carries, and only it. */
const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'", scriptHash(COLOR_SCHEME_BOOT)],
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

const HELMET_OPTIONS: HelmetOptions = {
  // helmet's defaults would add upgrade-insecure-requests, which breaks a panel served over plain HTTP.
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Browsers honour it only over HTTPS (behind a TLS-terminating proxy); over plain HTTP it is ignored.
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
};

/** The headers helmet's middleware sets for these options, read off one run of it. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export const securityHeaders = fp(async (app: FastifyInstance) => {
  const headers = helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});
