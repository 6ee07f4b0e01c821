/**
 * GET and PATCH /profile/preferences: each user's own preferences, stored on the server (defaults
 * until a change), changed by merge patches, refused with per-field messages when bad, audited, and
 * never another user's.
 */
import { expect, it } from 'vitest';
import { AUTH, PREFERENCES, PREFERENCE_LIMITS } from '../../src/contract';
import { describeEachDatabase, userId } from './harness';

const PATH = '/profile/preferences';

describeEachDatabase('user preferences', (ctx) => {
  it('answers the defaults until a change, then the stored choice, on every sign-in of the user', async () => {
    const dealer = await ctx.as('dealer2');
    expect((await dealer.get(PATH)).body).toEqual({ data: { colorScheme: 'system' } });

    const dark = await dealer.patch(PATH, { colorScheme: 'dark' });
    expect(dark.status, JSON.stringify(dark.body)).toBe(200);
    expect(dark.body).toEqual({ data: { colorScheme: 'dark' } });

    // Another session of the same user (another browser) reads it too.
    const again = await ctx.anonymous.post('/login', { username: 'dealer2', password: 'password123' });
    expect((await ctx.client(again.body.token).get(PATH)).body).toEqual({ data: { colorScheme: 'dark' } });

    expect((await dealer.patch(PATH, { colorScheme: 'light' })).body.data.colorScheme).toBe('light');
    expect((await dealer.get(PATH)).body.data.colorScheme).toBe('light');
  });

  it('merges a change into what is stored: fields not given keep theirs, a list set to null is forgotten', async () => {
    const reseller = await ctx.as('reseller2');
    await reseller.patch(PATH, { colorScheme: 'dark' });
    expect((await reseller.patch(PATH, { hiddenColumns: { users: ['phone', 'created_at'] } })).body.data).toEqual({
      colorScheme: 'dark',
      hiddenColumns: { users: ['phone', 'created_at'] },
    });
    await reseller.patch(PATH, { hiddenColumns: { transactions: ['ip'] } });
    expect((await reseller.get(PATH)).body.data.hiddenColumns).toEqual({ users: ['phone', 'created_at'], transactions: ['ip'] });
    await reseller.patch(PATH, { hiddenColumns: { users: null } });
    expect((await reseller.get(PATH)).body.data).toEqual({ colorScheme: 'dark', hiddenColumns: { transactions: ['ip'] } });
    // An empty patch changes nothing.
    expect((await reseller.patch(PATH, {})).body.data).toEqual({ colorScheme: 'dark', hiddenColumns: { transactions: ['ip'] } });
  });

  it('refuses bad values with 422 and the field message, and stores nothing', async () => {
    const manager = await ctx.as('manager2');
    await manager.patch(PATH, { colorScheme: 'light' });
    for (const value of ['purple', '', 1, null, ['dark'], { dark: true }]) {
      const res = await manager.patch(PATH, { colorScheme: value });
      expect(res.status, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors.colorScheme).toEqual([PREFERENCES.colorSchemeInvalid]);
    }
    for (const value of ['users', ['phone'], { users: 'phone' }, { users: [1] }, { users: ['x'.repeat(PREFERENCE_LIMITS.name + 1)] }, { '': ['phone'] }]) {
      const res = await manager.patch(PATH, { hiddenColumns: value });
      expect(res.status, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(422);
      // Under the field, or under the list or column inside it that is wrong ('hiddenColumns.users.0').
      const messages = Object.entries(res.body.errors as Record<string, string[]>).filter(([field]) => field.split('.')[0] === 'hiddenColumns');
      expect(new Set(messages.flatMap(([, m]) => m)), JSON.stringify(value)).toEqual(new Set([PREFERENCES.hiddenColumnsInvalid]));
    }
    const both = await manager.patch(PATH, { colorScheme: 'blue', hiddenColumns: 'none' });
    expect(Object.keys(both.body.errors).sort()).toEqual(['colorScheme', 'hiddenColumns']);
    // Nothing of a refused change is kept, even its valid part.
    expect((await manager.patch(PATH, { colorScheme: 'dark', hiddenColumns: { users: [1] } })).status).toBe(422);
    expect((await manager.get(PATH)).body.data).toEqual({ colorScheme: 'light' });
  });

  it('refuses a change that would keep more lists than allowed, counting the stored ones', async () => {
    const admin = await ctx.as('admin');
    const lists = (from: number, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`list${from + i}`, ['a']]));
    expect((await admin.patch(PATH, { hiddenColumns: lists(0, PREFERENCE_LIMITS.lists) })).status).toBe(200);
    const over = await admin.patch(PATH, { hiddenColumns: lists(PREFERENCE_LIMITS.lists, 1) });
    expect(over.status).toBe(422);
    expect(over.body.errors.hiddenColumns).toEqual([PREFERENCES.tooManyLists(PREFERENCE_LIMITS.lists)]);
    const tooManyAtOnce = await admin.patch(PATH, { hiddenColumns: lists(100, PREFERENCE_LIMITS.lists + 1) });
    expect(tooManyAtOnce.status).toBe(422);
    await admin.patch(PATH, { hiddenColumns: Object.fromEntries(Object.keys(lists(0, PREFERENCE_LIMITS.lists)).map((k) => [k, null])) });
    expect((await admin.get(PATH)).body.data.hiddenColumns).toEqual({});
  });

  it("reads and changes only the caller's own preferences", async () => {
    const dealer = await ctx.as('dealer');
    const reseller = await ctx.as('reseller');
    await dealer.patch(PATH, { colorScheme: 'dark' });
    await reseller.patch(PATH, { colorScheme: 'light' });
    // A user id in the body or the query is no way to another user's preferences.
    const dealerId = await userId(ctx, 'dealer');
    const sneaky = await reseller.patch(PATH, { user_id: dealerId, id: dealerId, colorScheme: 'system' });
    expect(sneaky.status).toBe(200);
    expect((await reseller.get(`${PATH}?user_id=${dealerId}`)).body.data.colorScheme).toBe('system');
    expect((await dealer.get(PATH)).body.data.colorScheme).toBe('dark');
    const rows = await ctx.db.kysely.selectFrom('user_preferences').select(['user_id', 'preferences']).where('user_id', '=', dealerId).execute();
    expect(rows.map((r) => JSON.parse(r.preferences).colorScheme)).toEqual(['dark']);
  });

  it('answers 401 without a session', async () => {
    for (const client of [ctx.anonymous, ctx.client('not-a-token')]) {
      const read = await client.get(PATH);
      expect(read.status).toBe(401);
      expect(read.body).toEqual({ message: AUTH.unauthenticated });
      const change = await client.patch(PATH, { colorScheme: 'dark' });
      expect(change.status).toBe(401);
    }
  });

  it('audits a change with the values before and after', async () => {
    const manager = await ctx.as('manager');
    await manager.patch(PATH, { colorScheme: 'light' });
    await manager.patch(PATH, { colorScheme: 'dark' });
    const entry = await ctx.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('module', '=', 'profile')
      .where('action', '=', 'update_preferences')
      .where('user_id', '=', await userId(ctx, 'manager'))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.target_username).toBe('manager');
    expect(JSON.parse(entry.old_values!)).toEqual({ colorScheme: 'light' });
    expect(JSON.parse(entry.new_values!)).toEqual({ colorScheme: 'dark' });
  });

  it('falls back to the default for a stored field that no longer passes its rule, keeping the others', async () => {
    const id = await userId(ctx, 'reseller');
    await (await ctx.as('reseller')).patch(PATH, { hiddenColumns: { users: ['phone'] } });
    await ctx.db.kysely
      .updateTable('user_preferences')
      .set({ preferences: JSON.stringify({ colorScheme: 'sepia', hiddenColumns: { users: ['phone'] } }) })
      .where('user_id', '=', id)
      .execute();
    expect((await (await ctx.as('reseller')).get(PATH)).body.data).toEqual({ colorScheme: 'system', hiddenColumns: { users: ['phone'] } });
  });
});
