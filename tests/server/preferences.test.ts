/**
 * GET and PATCH /profile/preferences: each user's own preferences, stored on the server (defaults
 * until a change), changed by merge patches, refused with per-field messages when bad, audited, and
 * never another user's.
 */
import { expect, it } from 'vitest';
import { AUTH, CHOOSABLE_COLUMNS, CHOOSABLE_LISTS, PREFERENCES } from '../../src/contract';
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
    expect((await reseller.patch(PATH, { hiddenColumns: { accounts: ['full_name', 'created_at'] } })).body.data).toEqual({
      colorScheme: 'dark',
      hiddenColumns: { accounts: ['full_name', 'created_at'] },
    });
    await reseller.patch(PATH, { hiddenColumns: { transactions: ['remarks'] } });
    expect((await reseller.get(PATH)).body.data.hiddenColumns).toEqual({ accounts: ['full_name', 'created_at'], transactions: ['remarks'] });
    await reseller.patch(PATH, { hiddenColumns: { accounts: null } });
    expect((await reseller.get(PATH)).body.data).toEqual({ colorScheme: 'dark', hiddenColumns: { transactions: ['remarks'] } });
    // An empty patch changes nothing.
    expect((await reseller.patch(PATH, {})).body.data).toEqual({ colorScheme: 'dark', hiddenColumns: { transactions: ['remarks'] } });
    // Every list may hide every one of its choosable columns at once, and a new session reads them all.
    const all = Object.fromEntries(CHOOSABLE_LISTS.map((list) => [list, [...CHOOSABLE_COLUMNS[list]]]));
    expect((await reseller.patch(PATH, { hiddenColumns: all })).status).toBe(200);
    const again = await ctx.anonymous.post('/login', { username: 'reseller2', password: 'password123' });
    expect((await ctx.client(again.body.token).get(PATH)).body.data.hiddenColumns).toEqual(all);
  });

  it('refuses bad values with 422 and the field message, and stores nothing', async () => {
    const manager = await ctx.as('manager2');
    await manager.patch(PATH, { colorScheme: 'light' });
    for (const value of ['purple', '', 1, null, ['dark'], { dark: true }]) {
      const res = await manager.patch(PATH, { colorScheme: value });
      expect(res.status, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.errors.colorScheme).toEqual([PREFERENCES.colorSchemeInvalid]);
    }
    for (const value of ['accounts', ['full_name'], { accounts: 'full_name' }, { accounts: { 0: 'full_name' } }]) {
      const res = await manager.patch(PATH, { hiddenColumns: value });
      expect(res.status, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(422);
      // Under the field, or under the list or column inside it that is wrong ('hiddenColumns.users.0').
      const messages = Object.entries(res.body.errors as Record<string, string[]>).filter(([field]) => field.split('.')[0] === 'hiddenColumns');
      expect(new Set(messages.flatMap(([, m]) => m)), JSON.stringify(value)).toEqual(new Set([PREFERENCES.hiddenColumnsInvalid]));
    }
    const both = await manager.patch(PATH, { colorScheme: 'blue', hiddenColumns: 'none' });
    expect(Object.keys(both.body.errors).sort()).toEqual(['colorScheme', 'hiddenColumns']);
    // Nothing of a refused change is kept, even its valid part.
    expect((await manager.patch(PATH, { colorScheme: 'dark', hiddenColumns: { accounts: [1] } })).status).toBe(422);
    expect((await manager.get(PATH)).body.data).toEqual({ colorScheme: 'light' });
  });

  it('keeps hidden columns only for known lists and their own choosable columns, each once, refused per field otherwise', async () => {
    const admin = await ctx.as('admin');
    await admin.patch(PATH, { hiddenColumns: { managers: ['created_at'] } });
    const refused = async (hiddenColumns: unknown, field: string, message: string) => {
      const res = await admin.patch(PATH, { hiddenColumns });
      expect(res.status, `${JSON.stringify(hiddenColumns).slice(0, 200)}: ${JSON.stringify(res.body).slice(0, 400)}`).toBe(422);
      expect(res.body.errors[field], JSON.stringify(res.body.errors).slice(0, 400)).toEqual([message]);
    };
    const unknownList = PREFERENCES.unknownList(CHOOSABLE_LISTS);
    // A list that is not one (another resource, a made-up or huge name, an object's own property names).
    for (const list of ['users', 'tickets', 'user-search', '', 'x'.repeat(10_000), 'constructor', 'toString', 'hasOwnProperty']) {
      await refused(JSON.parse(`{${JSON.stringify(list)}: ["created_at"]}`), 'hiddenColumns', unknownList);
    }
    // Many made-up lists at once: one message, and none of their names echoed back.
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`list${i}`, ['created_at']]));
    const manyAnswer = await admin.patch(PATH, { hiddenColumns: many });
    expect(manyAnswer.status).toBe(422);
    expect(manyAnswer.body.errors).toEqual({ hiddenColumns: [unknownList] });
    // A column that is not one of that list's choosable ones: a key column, another list's, made up, not text.
    const managerColumn = PREFERENCES.unknownColumn('managers', CHOOSABLE_COLUMNS.managers);
    for (const column of ['name', 'credits', 'remarks', 'password', 'x'.repeat(10_000), '', 1, null, { name: 'created_at' }]) {
      await refused({ managers: [column] }, 'hiddenColumns.managers.0', managerColumn);
    }
    await refused({ resellers: ['created_at', 'server.name'] }, 'hiddenColumns.resellers.1', PREFERENCES.unknownColumn('resellers', CHOOSABLE_COLUMNS.resellers));
    // The same column twice, or more names than the list has columns.
    await refused({ managers: ['created_at', 'created_at'] }, 'hiddenColumns.managers', PREFERENCES.duplicateColumn);
    await refused({ managers: Array.from({ length: 1000 }, () => 'created_at') }, 'hiddenColumns.managers', PREFERENCES.duplicateColumn);
    // A huge list of junk is one message, not one per entry.
    const junk = await admin.patch(PATH, { hiddenColumns: { managers: Array.from({ length: 50_000 }, (_, i) => i) } });
    expect(junk.status).toBe(422);
    expect(junk.body.errors).toEqual({ 'hiddenColumns.managers': [PREFERENCES.duplicateColumn] });
    // Nothing of a refused change was kept.
    expect((await admin.get(PATH)).body.data.hiddenColumns).toEqual({ managers: ['created_at'] });
  });

  it("reads and changes only the caller's own preferences", async () => {
    const dealer = await ctx.as('dealer');
    const reseller = await ctx.as('reseller');
    await dealer.patch(PATH, { colorScheme: 'dark', hiddenColumns: { accounts: ['state'] } });
    await reseller.patch(PATH, { colorScheme: 'light' });
    // Another user's choice is not theirs to read.
    expect((await reseller.get(PATH)).body.data.hiddenColumns).toBeUndefined();
    // A user id in the body or the query is no way to another user's preferences.
    const dealerId = await userId(ctx, 'dealer');
    const sneaky = await reseller.patch(PATH, { user_id: dealerId, id: dealerId, colorScheme: 'system', hiddenColumns: { accounts: null } });
    expect(sneaky.status).toBe(200);
    expect((await reseller.get(`${PATH}?user_id=${dealerId}`)).body.data).toEqual({ colorScheme: 'system', hiddenColumns: {} });
    expect((await dealer.get(PATH)).body.data).toEqual({ colorScheme: 'dark', hiddenColumns: { accounts: ['state'] } });
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
    await (await ctx.as('reseller')).patch(PATH, { hiddenColumns: { dealers: ['created_at'] } });
    await ctx.db.kysely
      .updateTable('user_preferences')
      .set({ preferences: JSON.stringify({ colorScheme: 'sepia', hiddenColumns: { dealers: ['created_at'] } }) })
      .where('user_id', '=', id)
      .execute();
    expect((await (await ctx.as('reseller')).get(PATH)).body.data).toEqual({ colorScheme: 'system', hiddenColumns: { dealers: ['created_at'] } });
    // Hidden columns stored for a list or column no longer known: none, rather than a failure.
    await ctx.db.kysely
      .updateTable('user_preferences')
      .set({ preferences: JSON.stringify({ colorScheme: 'dark', hiddenColumns: { users: ['phone'] } }) })
      .where('user_id', '=', id)
      .execute();
    expect((await (await ctx.as('reseller')).get(PATH)).body.data).toEqual({ colorScheme: 'dark' });
  });
});
