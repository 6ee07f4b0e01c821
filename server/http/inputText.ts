/**
 * One check of every text a request carries, before any route validates it: body values and keys,
 * query string names and values, path parameters. A NUL byte, another control character or a lone
 * surrogate is a 422 naming the field (PostgreSQL cannot store NUL; SQLite would store it silently,
 * and broken Unicode would be altered on the way to the database); a body key `__proto__` or
 * `constructor.prototype` is a 400, as Fastify's own JSON parser answers it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { GENERAL, hasForbiddenCharacters } from '../../src/contract';
import { badRequest, validationError } from './errors';

/** At most this many fields are named in one answer. */
const MAX_REPORTED = 20;

/** `filter[search]` is reported as `filter.search`, like the list conventions name it. */
const queryField = (key: string) => key.replace(/\[([^\]]*)\]/g, '.$1');

/**
 * The fields of `value` holding forbidden characters (dotted paths below `root`, '' for the value
 * itself). Iterative, so a deeply nested body cannot overflow the stack.
 */
function badFields(value: unknown, root: string, found: Set<string>, forbiddenKey: { seen: boolean }): void {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && found.size < MAX_REPORTED) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (hasForbiddenCharacters(current)) found.add(path || 'body');
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path]);
      continue;
    }
    for (const key of Object.keys(current)) {
      const child = (current as Record<string, unknown>)[key];
      if (key === '__proto__') forbiddenKey.seen = true;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) forbiddenKey.seen = true;
      // A key with forbidden characters is reported on the object that holds it.
      if (hasForbiddenCharacters(key)) {
        found.add(path || 'body');
        continue;
      }
      stack.push([child, path ? `${path}.${key}` : key]);
    }
  }
}

export function checkRequestText(request: Pick<FastifyRequest, 'body' | 'query' | 'params'>): void {
  const found = new Set<string>();
  const forbiddenKey = { seen: false };
  const params = request.params as Record<string, unknown> | undefined;
  if (params && typeof params === 'object') {
    for (const [key, value] of Object.entries(params)) if (typeof value === 'string' && hasForbiddenCharacters(value)) found.add(key);
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query === 'object') {
    for (const [key, value] of Object.entries(query)) {
      if (hasForbiddenCharacters(key)) found.add('querystring');
      // A parameter named __proto__ cannot be an error key (an object would take it as its prototype).
      else badFields(value, key === '__proto__' ? 'querystring' : queryField(key), found, { seen: false });
    }
  }
  badFields(request.body, '', found, forbiddenKey);
  if (forbiddenKey.seen) throw badRequest(GENERAL.forbiddenKey);
  if (found.size > 0) throw validationError(Object.fromEntries([...found].map((field) => [field, GENERAL.invalidCharacters])));
}

/** Runs the check on every route, after authentication and before schema validation. */
export const inputText = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => checkRequestText(request));
});
