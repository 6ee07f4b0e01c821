/** Builds the Fastify application: API under /api/v1, OpenAPI at /api/docs, and the built panel. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyContextConfig, type FastifyInstance, type FastifySchema } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_PREFIX } from '../src/contract';
import { TOKEN_USE } from './http/apiTokenDocs';
import type { Config } from './config';
import type { Db } from './db/connect';
import { auditTrail } from './audit';
import { resolveBearer } from './auth/apiTokens';
import { apiTokenGuard } from './http/apiTokenGuard';
import { documentTokenScopes, tokenScopeTransform } from './http/apiTokenDocs';
import { errorHandler, notFound } from './http/errors';
import { guard } from './http/guard';
import { inputText } from './http/inputText';
import { securityHeaders } from './http/securityHeaders';
import { Provisioners } from './provisioning';
import { apiModules } from './routes';
import { legacyTransactionRoutes } from './routes/transactions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Every route as registered (method, url, config, schema), so tests can derive the API surface. */
    routeTable: RouteEntry[];
    /** Each server's provisioning driver (server/provisioning). */
    provisioners: Provisioners;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  config: FastifyContextConfig | undefined;
  schema: FastifySchema | undefined;
}

/** Trusts the socket's peer and the next hops - 1 forwarders: the client is the entry just beyond them. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export const PANEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

// Vite gives the files under assets/ content-hashed names: a new build never reuses a name, so they
// are cached for good; everything else (index.html) is revalidated on every load.
const HASHED_DIR = 'assets';
const cacheControl = (root: string, file: string) => (path.relative(root, file).split(path.sep)[0] === HASHED_DIR ? 'public, max-age=31536000, immutable' : 'no-cache');

export interface BuildOptions {
  db: Db;
  config: Config;
  /** The built panel to serve when it holds an index.html (default dist/); null serves none. */
  panelDir?: string | null;
}

export async function buildApp({ db, config, panelDir = PANEL_DIR }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 1_048_576,
    // TRUST_PROXY (config.ts): a hop count or the proxies' addresses, never every forwarded address.
    // A count is a trust function: Fastify treats a bare number as "trust nothing".
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });
  app.decorate('db', db);
  app.decorate('config', config);
  const provisioners = Provisioners.attach(db.kysely, config, app.log);
  app.decorate('provisioners', provisioners);
  app.addHook('onClose', () => provisioners.close());
  // Middleware changes a crash or a failed compensation left pending are settled from start-up on.
  let stopSettling = () => {};
  app.addHook('onReady', async () => void (stopSettling = provisioners.startSettling()));
  app.addHook('onClose', async () => stopSettling());
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, config: route.config as FastifyContextConfig | undefined, schema: route.schema });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  await app.register(securityHeaders);

  // An empty JSON body is an empty object (toggle calls post none); anything else must parse.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Credit panel API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: TOKEN_USE } } },
      security: [{ bearer: [] }],
    },
    transformObject: (document) => documentTokenScopes(document),
    transform: (route) => {
      const out = tokenScopeTransform(route, jsonSchemaTransform(route));
      // A 204 has no body: OpenAPI 3.0 has no null type, so the answer is stated without content.
      const response = (out.schema as { response?: Record<string, unknown> } | undefined)?.response;
      if (response?.['204']) response['204'] = { type: 'null', description: 'No content.' };
      return out;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(guard, { resolveSession: resolveBearer });
  await app.register(apiTokenGuard);
  await app.register(inputText);
  await app.register(auditTrail);
  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module);
    },
    { prefix: API_PREFIX },
  );
  // The legacy path /api/transactions, outside /api/v1 (docs/api.md).
  await app.register(legacyTransactionRoutes);

  const panelBuilt = panelDir !== null && fs.existsSync(path.join(panelDir, 'index.html'));
  if (panelBuilt) {
    await app.register(fastifyStatic, {
      root: panelDir,
      wildcard: false,
      index: false,
      // The .br and .gz copies the build wrote beside each file (scripts/precompress.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader('cache-control', cacheControl(panelDir, file));
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed file (an old build's chunk) is a 404, never index.html under a script's name.
    if (request.url.startsWith('/api/') || request.url.startsWith(`/${HASHED_DIR}/`) || request.method !== 'GET' || !panelBuilt) {
      throw notFound('Not Found');
    }
    // Client-side routes: the panel decides what a path shows (including its own 404 page).
    return reply.type('text/html').sendFile('index.html');
  });

  return app;
}
