import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { GENERAL } from '../../src/contract';
import { errorHandler } from '../../server/http/errors';
import { describeEachDatabase } from './harness';

/** Constraint failures left to the database (races between requests) answer 4xx, never 500. */
describe('database constraint failures', () => {
  const cases: Array<[string, number, string]> = [
    ['23505', 409, GENERAL.alreadyExists],
    ['SQLITE_CONSTRAINT_UNIQUE', 409, GENERAL.alreadyExists],
    ['23503', 409, GENERAL.relatedRecordGone],
    ['SQLITE_CONSTRAINT_FOREIGNKEY', 409, GENERAL.relatedRecordGone],
    ['22003', 422, GENERAL.numberOutOfRange],
    ['XX000', 500, GENERAL.serverError],
  ];
  for (const [code, status, message] of cases) {
    it(`maps ${code} to ${status}`, async () => {
      const app = Fastify({ logger: false });
      app.setErrorHandler(errorHandler);
      app.get('/', async () => {
        throw Object.assign(new Error('constraint'), { code });
      });
      const res = await app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message });
    });
  }
});

describeEachDatabase('ids beyond the id columns', (ctx) => {
  it('answers 4xx, never 500, for ids and id filters that do not fit a 32-bit integer', async () => {
    const admin = await ctx.as('admin');
    const probes: Array<[string, string, unknown?]> = [
      ['GET', '/managers/2147483648'],
      ['GET', '/accounts/99999999999'],
      ['GET', '/transactions?filter[user_id]=99999999999'],
      ['GET', '/global-discounts?filter[server_id]=3000000000'],
      ['POST', '/resellers', { name: 'x', username: 'bigid_r', password: 'password123', credits: 0, manager: 3e9 }],
      ['POST', '/managers', { name: 'x', username: 'bigid_m', password: 'password123', credits: 0, server_id: 3e9 }],
      ['POST', '/accounts/bulk-suspend', { account_ids: [3e9] }],
    ];
    for (const [method, url, body] of probes) {
      const res = await admin.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${url}`).toBeLessThan(500);
    }
  });
});
