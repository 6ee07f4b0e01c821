import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { ACCESS, ENTITY_FORM, SERVER_DEFAULTS, SERVER_FORM } from '../../src/contract';
import { serverChecksJob } from '../../server/jobs';
import { GENERATED_KEY_FILE, GENERATED_KEY_SETTING, decryptWith, secretKey, serverPassword } from '../../server/servers/secret';
import { type TestContext, closedPort, describeEachDatabase } from './harness';

const storedRow = (ctx: TestContext, id: number) => ctx.db.kysely.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

let serial = 0;
const body = (overrides: Record<string, unknown> = {}) => ({
  name: `Server ${++serial}`,
  db_host: '127.0.0.1',
  db_username: 'stalker',
  db_name: 'stalker_db',
  ...overrides,
});

describeEachDatabase('servers', (ctx) => {
  const saved = { production: false, appKey: undefined as string | undefined };
  afterEach(() => {
    ctx.config.production = saved.production;
    ctx.config.appKey = saved.appKey;
  });

  it('lists servers as data + meta without any password, and only to admin', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.get('/servers?per_page=50');
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: 50 });
    const names = res.body.data.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['Main Server', 'Backup Server']));
    for (const row of res.body.data) {
      expect(row).not.toHaveProperty('db_password');
      expect(row).not.toHaveProperty('db_password_enc');
      expect(typeof row.has_password).toBe('boolean');
    }
    const main = res.body.data.find((s: { name: string }) => s.name === 'Main Server');
    expect(main.accounts_count).toBeGreaterThan(0);

    const filtered = await admin.get('/servers?filter[search]=backup');
    expect(filtered.body.data.map((s: { name: string }) => s.name)).toEqual(['Backup Server']);
    expect((await admin.get('/servers?filter[status]=paused')).status).toBe(422);

    for (const username of ['manager', 'reseller', 'dealer']) {
      expect((await (await ctx.as(username)).get('/servers')).status).toBe(403);
    }
  });

  it('gives every role the id, name and status of each server for pickers', async () => {
    for (const username of ['admin', 'manager', 'reseller', 'dealer']) {
      const res = await (await ctx.as(username)).get('/servers/public');
      expect(res.status).toBe(200);
      const main = res.body.data.find((s: { name: string }) => s.name === 'Main Server');
      expect(main).toEqual({ id: expect.any(Number), name: 'Main Server', status: 'active' });
    }
    expect((await ctx.anonymous.get('/servers/public')).status).toBe(401);
  });

  it('creates a server with the defaults: port 3306, active, online', async () => {
    const admin = await ctx.as('admin');
    const res = await admin.post('/servers', body({ name: 'Defaults Server' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Defaults Server',
      db_port: SERVER_DEFAULTS.db_port,
      status: SERVER_DEFAULTS.status,
      connection_status: SERVER_DEFAULTS.connection_status,
      has_password: false,
      last_checked_at: null,
      accounts_count: 0,
    });
    const shown = await admin.get(`/servers/${res.body.data.id}`);
    expect(shown.body.data).toEqual(res.body.data);
    // A numeric port is kept as text.
    const numeric = await admin.post('/servers', body({ db_port: 5432 }));
    expect(numeric.body.data.db_port).toBe('5432');
  });

  it('validates the body with the form messages', async () => {
    const admin = await ctx.as('admin');
    const empty = await admin.post('/servers', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({
      name: [ENTITY_FORM.nameRequired],
      db_host: [SERVER_FORM.hostRequired],
      db_username: [SERVER_FORM.usernameRequired],
      db_name: [SERVER_FORM.dbNameRequired],
    });
    for (const db_port of ['0', '65536', 'abc', '33 06', -1]) {
      const res = await admin.post('/servers', body({ db_port }));
      expect(res.status, String(db_port)).toBe(422);
      expect(res.body.errors.db_port).toEqual([SERVER_FORM.portInvalid]);
    }
    expect((await admin.post('/servers', body({ status: 'paused' }))).body.errors.status).toEqual([SERVER_FORM.statusInvalid]);
    expect((await admin.post('/servers', body({ connection_status: 'up' }))).body.errors.connection_status).toEqual([SERVER_FORM.connectionStatusInvalid]);
    expect((await admin.post('/servers', body({ db_host: 'http://x y' }))).body.errors.db_host).toEqual([SERVER_FORM.hostInvalid]);
    const dup = await admin.post('/servers', body({ name: 'main server' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual([SERVER_FORM.nameTaken]);
  });

  it('keeps db_password write-only and encrypted at rest; an empty password on update keeps it', async () => {
    const admin = await ctx.as('admin');
    const created = await admin.post('/servers', body({ db_password: 'S3cret-pass!' }));
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain('S3cret-pass!');
    expect(created.body.data.has_password).toBe(true);
    const id = created.body.data.id;

    const row = await storedRow(ctx, id);
    expect(row.db_password_enc).toMatch(/^v1:/);
    expect(row.db_password_enc).not.toContain('S3cret-pass!');
    expect(await serverPassword(ctx.db.kysely, ctx.config, id)).toBe('S3cret-pass!');
    // Same text twice gives different ciphertexts (random IV).
    const again = await admin.post('/servers', body({ db_password: 'S3cret-pass!' }));
    expect((await storedRow(ctx, again.body.data.id)).db_password_enc).not.toBe(row.db_password_enc);

    // The generated key lives beside the SQLite file, or in the settings table on PostgreSQL.
    if (ctx.kind === 'sqlite') {
      const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(ctx.db.kysely);
      const file = rows.find((r) => r.name === 'main')!.file;
      expect(fs.existsSync(path.join(path.dirname(file), GENERATED_KEY_FILE))).toBe(true);
    } else {
      const setting = await ctx.db.kysely.selectFrom('settings').select('value').where('key', '=', GENERATED_KEY_SETTING).executeTakeFirst();
      expect(setting).toBeDefined();
    }

    for (const db_password of ['', null, undefined]) {
      const kept = await admin.put(`/servers/${id}`, body({ name: created.body.data.name, db_password }));
      expect(kept.status).toBe(200);
      expect(kept.body.data.has_password).toBe(true);
      expect((await storedRow(ctx, id)).db_password_enc).toBe(row.db_password_enc);
    }
    const changed = await admin.put(`/servers/${id}`, body({ name: created.body.data.name, db_password: 'n3w' }));
    expect(changed.status).toBe(200);
    expect(await serverPassword(ctx.db.kysely, ctx.config, id)).toBe('n3w');

    const audit = await ctx.db.kysely.selectFrom('audit_logs').select(['action', 'new_values']).where('module', '=', 'servers').where('entity_id', '=', id).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'update']));
    for (const entry of audit) {
      expect(entry.new_values ?? '').not.toContain('S3cret-pass!');
      expect(entry.new_values ?? '').not.toContain('n3w');
    }
  });

  it('derives the key from APP_KEY when set', async () => {
    const admin = await ctx.as('admin');
    ctx.config.appKey = 'base64:' + Buffer.alloc(32, 7).toString('base64');
    const created = await admin.post('/servers', body({ db_password: 'with-app-key' }));
    expect(created.status).toBe(201);
    const enc = (await storedRow(ctx, created.body.data.id)).db_password_enc!;
    const appKey = (await secretKey(ctx.db.kysely, ctx.config))!;
    expect(decryptWith(appKey, enc)).toBe('with-app-key');
    // Another key cannot read it.
    const generated = (await secretKey(ctx.db.kysely, { production: false, appKey: undefined }))!;
    expect(() => decryptWith(generated, enc)).toThrow();
  });

  it('refuses to store a password in production without APP_KEY (422), but saves servers without one', async () => {
    const admin = await ctx.as('admin');
    ctx.config.production = true;
    ctx.config.appKey = undefined;
    const refused = await admin.post('/servers', body({ db_password: 'pw' }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.db_password).toEqual([SERVER_FORM.appKeyRequired]);
    expect(refused.body.message).toContain('APP_KEY');
    const without = await admin.post('/servers', body());
    expect(without.status).toBe(201);
    expect(without.body.data.has_password).toBe(false);
  });

  it('checks the connection for real: MariaDB on loopback is online, a closed port offline', async () => {
    const admin = await ctx.as('admin');
    const up = await admin.post('/servers', body({ db_port: '3306', connection_status: 'offline' }));
    const checkedUp = await admin.post(`/servers/${up.body.data.id}/check`);
    expect(checkedUp.status).toBe(200);
    expect(checkedUp.body.data.connection_status).toBe('online');
    expect(Date.parse(checkedUp.body.data.last_checked_at)).toBeGreaterThan(Date.now() - 60_000);

    const port = await closedPort();
    const down = await admin.post('/servers', body({ db_port: String(port), connection_status: 'online' }));
    const started = Date.now();
    const checkedDown = await admin.post(`/servers/${down.body.data.id}/check`, undefined);
    expect(checkedDown.body.data.connection_status).toBe('offline');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await storedRow(ctx, down.body.data.id)).connection_status).toBe('offline');

    expect((await (await ctx.as('manager')).post(`/servers/${up.body.data.id}/check`)).status).toBe(403);
    expect((await admin.post('/servers/999999/check')).status).toBe(404);
  });

  it('checks every active server on the schedule, and skips inactive ones', async () => {
    const admin = await ctx.as('admin');
    const port = await closedPort();
    const active = await admin.post('/servers', body({ db_port: String(port), connection_status: 'online' }));
    const inactive = await admin.post('/servers', body({ db_port: String(port), status: 'inactive', connection_status: 'online' }));
    const online = await admin.post('/servers', body({ db_port: '3306', connection_status: 'offline' }));
    expect(serverChecksJob.everyMs).toBe(5 * 60_000);
    await serverChecksJob.run(ctx.db.kysely);
    expect((await storedRow(ctx, active.body.data.id)).connection_status).toBe('offline');
    expect((await storedRow(ctx, online.body.data.id)).connection_status).toBe('online');
    const skipped = await storedRow(ctx, inactive.body.data.id);
    expect(skipped).toMatchObject({ connection_status: 'online', last_checked_at: null });
  });

  it('updates and deletes a server; bulk delete is one call per id', async () => {
    const admin = await ctx.as('admin');
    const a = await admin.post('/servers', body());
    const b = await admin.post('/servers', body());
    const updated = await admin.put(`/servers/${a.body.data.id}`, body({ name: 'Renamed Server', status: 'inactive', connection_status: 'offline', db_port: '3307' }));
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Renamed Server', status: 'inactive', connection_status: 'offline', db_port: '3307' });
    for (const id of [a.body.data.id, b.body.data.id]) {
      expect((await admin.delete(`/servers/${id}`)).status).toBe(204);
      expect((await admin.get(`/servers/${id}`)).status).toBe(404);
    }
    expect((await admin.delete(`/servers/${a.body.data.id}`)).status).toBe(404);
    expect((await (await ctx.as('manager')).delete(`/servers/${b.body.data.id}`)).status).toBe(403);
    const logged = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select('id')
      .where('module', '=', 'servers')
      .where('action', '=', 'delete')
      .where('entity_id', '=', a.body.data.id)
      .execute();
    expect(logged).toHaveLength(1);
  });

  it('refuses (409) to delete a server that accounts or managers still use', async () => {
    const admin = await ctx.as('admin');
    const main = await ctx.db.kysely.selectFrom('servers').select('id').where('name', '=', 'Main Server').executeTakeFirstOrThrow();
    const used = await ctx.db.kysely
      .selectFrom('accounts')
      .select(sql<number>`count(*)`.as('n'))
      .where('server_id', '=', main.id)
      .executeTakeFirstOrThrow();
    const refused = await admin.delete(`/servers/${main.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: SERVER_FORM.usedByAccounts(Number(used.n)) });
    expect((await admin.get(`/servers/${main.id}`)).status).toBe(200);

    const spare = await admin.post('/servers', body());
    const manager2 = await ctx.db.kysely.selectFrom('users').select(['id', 'server_id']).where('username', '=', 'manager2').executeTakeFirstOrThrow();
    await ctx.db.kysely.updateTable('users').set({ server_id: spare.body.data.id }).where('id', '=', manager2.id).execute();
    try {
      const byManager = await admin.delete(`/servers/${spare.body.data.id}`);
      expect(byManager.status).toBe(409);
      expect(byManager.body.message).toBe(SERVER_FORM.usedByManagers(1));
    } finally {
      await ctx.db.kysely.updateTable('users').set({ server_id: manager2.server_id }).where('id', '=', manager2.id).execute();
    }
    expect((await admin.delete(`/servers/${spare.body.data.id}`)).status).toBe(204);
  });

  it('answers the maintenance message to non-admin pickers while maintenance is on', async () => {
    const admin = await ctx.as('admin');
    // Signed in before maintenance began: during it, a non-admin's sign-in is refused.
    const dealer = await ctx.as('dealer');
    await admin.put('/system-settings/maintenance-mode', { maintenance_mode: true });
    try {
      const res = await dealer.get('/servers/public');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(ACCESS.maintenance);
      expect((await admin.get('/servers/public')).status).toBe(200);
    } finally {
      await admin.put('/system-settings/maintenance-mode', { maintenance_mode: false });
    }
  });
});
