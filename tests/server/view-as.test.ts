/**
 * View-as (docs/security.md#view-as) on SQLite and PostgreSQL: a parent views the panel as a user of
 * its subtree; read only unless the admin lets it act, then every change is audited with both names;
 * never a password, second factor, session or another view-as; outside the subtree 404; it ends with
 * its End, with sign-out, with the parent's own session and after its time.
 */
import { expect, it } from 'vitest';
import { ACCESS, VIEW_AS, VIEW_AS_TTL_MINUTES } from '../../src/contract';
import { PASSWORD, createBranch } from './hierarchyFixtures';
import { type Client, type TestContext, describeEachDatabase } from './harness';

async function viewAs(ctx: TestContext, parent: Client, id: number): Promise<Client> {
  const res = await parent.post(`/view-as/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ctx.client(res.body.token);
}

async function setActing(ctx: TestContext, on: boolean) {
  const res = await (await ctx.as('admin')).put('/system-settings/view-as-can-act', { view_as_can_act: on });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A session of its own for a fresh user, so ending it spoils no other test. */
async function freshSession(ctx: TestContext, username: string): Promise<Client> {
  const res = await ctx.anonymous.post('/login', { username, password: PASSWORD });
  expect(res.status).toBe(200);
  return ctx.client(res.body.token);
}

describeEachDatabase('view as', (ctx) => {
  it('shows the panel as the user below, naming the parent, read only by default', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    const start = await reseller.client.post(`/view-as/${dealer.id}`);
    expect(start.status).toBe(200);
    expect(start.body.user).toMatchObject({
      id: dealer.id,
      username: dealer.username,
      view_as: { viewer: { id: reseller.id, username: reseller.username }, can_act: false },
    });
    const expires = Date.parse(start.body.user.view_as.expires_at);
    expect(expires - Date.now()).toBeLessThanOrEqual(VIEW_AS_TTL_MINUTES * 60_000);
    expect(expires - Date.now()).toBeGreaterThan((VIEW_AS_TTL_MINUTES - 1) * 60_000);
    const viewing = ctx.client(start.body.token);
    const me = await viewing.get('/user');
    expect(me.body).toMatchObject({ username: dealer.username, role: 'dealer', view_as: { viewer: { username: reseller.username } } });
    expect((await viewing.get('/accounts')).status).toBe(200);
    // Every change is refused with a clear message.
    for (const [method, url, body] of [
      ['PUT', '/update-profile', { name: 'Changed' }],
      ['POST', '/accounts', {}],
      ['PATCH', '/profile/preferences', { color_scheme: 'dark' }],
    ] as const) {
      const res = await viewing.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.message).toBe(VIEW_AS.readOnly);
    }
    expect((await ctx.db.kysely.selectFrom('users').select('name').where('id', '=', dealer.id).executeTakeFirstOrThrow()).name).not.toBe('Changed');
    // The parent's own sessions do not show the view; nor do the user's.
    expect((await dealer.client.get('/sessions')).body.data).toHaveLength(1);
  });

  it('acts as the user where the admin allows it, each change audited with both names', async () => {
    const { manager, reseller } = await createBranch(ctx);
    await setActing(ctx, true);
    try {
      const viewing = await viewAs(ctx, manager.client, reseller.id);
      expect((await viewing.get('/user')).body.view_as.can_act).toBe(true);
      const res = await viewing.put('/update-profile', { name: 'Renamed while viewed' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const entry = await ctx.db.kysely
        .selectFrom('audit_logs')
        .selectAll()
        .where('module', '=', 'profile')
        .where('action', '=', 'update')
        .where('entity_id', '=', reseller.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry).toMatchObject({ username: reseller.username, viewer_username: manager.username });
      const listed = await (await ctx.as('admin')).get(`/audit-logs?filter[search]=${reseller.username}`);
      expect(listed.body.data.find((e: any) => e.id === entry.id)).toMatchObject({ viewer_username: manager.username });
      // The start is the parent's own entry.
      const started = await ctx.db.kysely
        .selectFrom('audit_logs')
        .selectAll()
        .where('action', '=', 'view_as_start')
        .where('entity_id', '=', reseller.id)
        .executeTakeFirstOrThrow();
      expect(started).toMatchObject({ username: manager.username, target_username: reseller.username, viewer_username: null });

      // Never the user's password, second factor, sessions or tokens, even when acting is allowed.
      for (const [url, body] of [
        ['/change-password', { current_password: PASSWORD, new_password: 'x-new-pass-1', new_password_confirmation: 'x-new-pass-1' }],
        ['/profile/two-factor/setup', {}],
        ['/sessions/end-others', {}],
      ] as const) {
        const refused = await viewing.post(url, body);
        expect(refused.status, url).toBe(403);
        expect(refused.body.message).toBe(VIEW_AS.notWhileViewing);
      }
      expect((await viewing.delete('/sessions/1')).body.message).toBe(VIEW_AS.notWhileViewing);

      // Turning the setting off stops a view already open from acting.
      await setActing(ctx, false);
      const after = await viewing.put('/update-profile', { name: 'Again' });
      expect(after.status).toBe(403);
      expect(after.body.message).toBe(VIEW_AS.readOnly);
    } finally {
      await setActing(ctx, false);
    }
  });

  it('answers 404 outside the subtree, for oneself and for the user above; 403 for a dealer', async () => {
    const a = await createBranch(ctx);
    const b = await createBranch(ctx);
    expect((await a.reseller.client.post(`/view-as/${b.dealer.id}`)).status).toBe(404);
    expect((await a.manager.client.post(`/view-as/${b.reseller.id}`)).status).toBe(404);
    expect((await a.reseller.client.post(`/view-as/${a.reseller.id}`)).status).toBe(404);
    expect((await a.reseller.client.post(`/view-as/${a.manager.id}`)).status).toBe(404);
    expect((await a.reseller.client.post('/view-as/99999999')).status).toBe(404);
    const dealer = await a.dealer.client.post(`/view-as/${a.dealer.id}`);
    expect(dealer.status).toBe(403);
    expect(dealer.body.message).toBe(ACCESS.forbidden);
    // The admin views anyone.
    expect((await (await ctx.as('admin')).post(`/view-as/${b.dealer.id}`)).status).toBe(200);
  });

  it('cannot chain: a view-as session starts no other view', async () => {
    const { manager, reseller, dealer } = await createBranch(ctx);
    await setActing(ctx, true);
    try {
      const viewing = await viewAs(ctx, manager.client, reseller.id);
      const chained = await viewing.post(`/view-as/${dealer.id}`);
      expect(chained.status).toBe(403);
      expect(chained.body.message).toBe(VIEW_AS.notWhileViewing);
    } finally {
      await setActing(ctx, false);
    }
  });

  it('ends with End, back to the parent’s own session, and End from a normal session is a conflict', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    const parent = await freshSession(ctx, reseller.username);
    const viewing = await viewAs(ctx, parent, dealer.id);
    const ended = await viewing.post('/view-as/end');
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe(VIEW_AS.endedMessage);
    expect((await viewing.get('/user')).status).toBe(401);
    expect((await parent.get('/user')).body.username).toBe(reseller.username);
    expect((await parent.post('/view-as/end')).status).toBe(409);
    const audit = await ctx.db.kysely
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'view_as_end')
      .where('entity_id', '=', dealer.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ username: dealer.username, viewer_username: reseller.username });
  });

  it('ends on sign-out (the parent is signed out too) and with the parent’s own session', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    const parent = await freshSession(ctx, reseller.username);
    const viewing = await viewAs(ctx, parent, dealer.id);
    expect((await viewing.post('/logout')).status).toBe(204);
    expect((await viewing.get('/user')).status).toBe(401);
    expect((await parent.get('/user')).status).toBe(401);

    const parent2 = await freshSession(ctx, reseller.username);
    const viewing2 = await viewAs(ctx, parent2, dealer.id);
    expect((await parent2.post('/logout')).status).toBe(204);
    expect((await viewing2.get('/user')).status).toBe(401);
  });

  it('expires after its time', async () => {
    const { reseller, dealer } = await createBranch(ctx);
    const viewing = await viewAs(ctx, reseller.client, dealer.id);
    expect((await viewing.get('/user')).status).toBe(200);
    await ctx.db.kysely
      .updateTable('auth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('viewer_id', '=', reseller.id)
      .execute();
    expect((await viewing.get('/user')).status).toBe(401);
    // The parent's own session is untouched.
    expect((await reseller.client.get('/user')).status).toBe(200);
  });

  it('ends when the user leaves the parent’s reach: suspended parent, or the viewed user disabled', async () => {
    const { manager, reseller, dealer } = await createBranch(ctx);
    const viewing = await viewAs(ctx, reseller.client, dealer.id);
    expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'inactive' })).status).toBe(200);
    expect((await viewing.get('/user')).status).toBe(401);
    expect((await manager.client.patch(`/resellers/${reseller.id}`, { status: 'active' })).status).toBe(200);
    const inactive = await createBranch(ctx);
    expect((await inactive.reseller.client.patch(`/dealers/${inactive.dealer.id}`, { status: 'inactive' })).status).toBe(200);
    expect((await inactive.reseller.client.post(`/view-as/${inactive.dealer.id}`)).status).toBe(409);
  });
});
