import { expect, it } from 'vitest';
import { AUTH } from '../../src/contract';
import { describeEachDatabase } from './harness';

describeEachDatabase('auth', (ctx) => {
  it('signs a demo user in with any password and answers who am I', async () => {
    const login = await ctx.anonymous.post('/login', { username: 'reseller', password: 'anything' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ username: 'reseller', role: 'reseller' });
    const me = await ctx.client(login.body.token).get('/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('reseller');
  });

  it('answers 401 Unauthenticated. without a valid token', async () => {
    for (const client of [ctx.anonymous, ctx.client('not-a-token')]) {
      const res = await client.get('/user');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: AUTH.unauthenticated });
    }
  });
});
