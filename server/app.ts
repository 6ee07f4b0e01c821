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
import type { Config } from './config';
import type { Db } from './db/connect';
import { auditTrail } from './audit';
import { ApiError, errorHandler } from './http/errors';
import { guard } from './http/guard';
import { apiModules } from './routes';
import { legacyTransactionRoutes } from './routes/transactions';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** Every route as registered (method, url, config, schema), so tests can derive the API surface. */
    routeTable: RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  config: FastifyContextConfig | undefined;
  schema: FastifySchema | undefined;
}

export const PANEL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

export interface BuildOptions {
  db: Db;
  config: Config;
  /** Serve the built panel from dist/ (when it exists). */
  servePanel?: boolean;
}

export async function buildApp({ db, config, servePanel = true }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 1_048_576,
    // Behind one reverse proxy, the client's address is its X-Forwarded-For entry.
    trustProxy: process.env.TRUST_PROXY === 'true',
  });
  app.decorate('db', db);
  app.decorate('config', config);
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
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(guard);
  await app.register(auditTrail);
  await app.register(
    async (api) => {
      for (const module of apiModules) await api.register(module);
    },
    { prefix: API_PREFIX },
  );
  // The spec's legacy path /api/transactions, outside /api/v1.
  await app.register(legacyTransactionRoutes);

  const panelBuilt = servePanel && fs.existsSync(path.join(PANEL_DIR, 'index.html'));
  if (panelBuilt) {
    await app.register(fastifyStatic, { root: PANEL_DIR, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !panelBuilt) {
      throw new ApiError(404, 'Not Found');
    }
    // Client-side routes: the panel decides what a path shows (including its own 404 page).
    return reply.type('text/html').sendFile('index.html');
  });

  return app;
}
