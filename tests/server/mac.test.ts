/** MAC addresses: normalisation, validation, uniqueness per server, the MAC check and its delete. */
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, ENTITY_FORM, formatMac, normalizeMac } from '../../src/contract';
import { accountRow, createAccount, uniqueMac } from './accountFixtures';
import { describeEachDatabase } from './harness';

describe('MAC notation', () => {
  it('accepts exactly 12 hex digits in any common notation and stores them bare and uppercase', () => {
    for (const input of ['00:1a:79:ab:cd:ef', '00-1A-79-AB-CD-EF', '001a.79ab.cdef', '001A79ABCDEF', ' 00 1a 79 ab cd ef ']) {
      expect(normalizeMac(input), input).toBe('001A79ABCDEF');
    }
    for (const input of ['', '00:1A:79:AB:CD', '00:1A:79:AB:CD:EF:01', '00:1A:79:AB:CD:EG', 'not a mac', '001A79ABCDEF0']) {
      expect(normalizeMac(input), input).toBeNull();
    }
    expect(formatMac('001a79abcdef')).toBe('00:1A:79:AB:CD:EF');
  });
});

describeEachDatabase('MAC check', (ctx) => {
  it('finds an account of the caller by MAC in any notation, with the server filter', async () => {
    const dealer = await ctx.as('dealer');
    const res = await dealer.get(`/mac-search?mac=${encodeURIComponent('00-1a-79-00-00-01')}&server_id=1`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ mac: '00:1A:79:00:00:01', found: true, registered_elsewhere: false, message: ACCOUNTS.macFound });
    expect(res.body.data.account).toMatchObject({ login: 'john.doe', mac_address: '00:1A:79:00:00:01', pwd_txt: 'stb1234' });
    expect(res.body.data.accounts).toHaveLength(1);
    const otherServer = await dealer.get('/mac-search?mac=001A79000001&server_id=2');
    expect(otherServer.body.data).toMatchObject({ found: false, registered_elsewhere: false, account: null });
    // A manager and admin see it too (masked password).
    const admin = await (await ctx.as('admin')).get('/mac-search?mac=001A79000001');
    expect(admin.body.data.account).toMatchObject({ login: 'john.doe', pwd_txt: '********' });
  });

  it('says a MAC is registered elsewhere without revealing whose', async () => {
    const res = await (await ctx.as('dealer2')).get('/mac-search?mac=00:1A:79:00:00:01');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      mac: '00:1A:79:00:00:01',
      found: false,
      registered_elsewhere: true,
      account: null,
      accounts: [],
      message: ACCOUNTS.macElsewhere,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/john|dealer"|Dan Dealer/i);
    const unknown = await (await ctx.as('dealer2')).get(`/mac-search?mac=${uniqueMac()}`);
    expect(unknown.body.data).toMatchObject({ found: false, registered_elsewhere: false, message: ACCOUNTS.macNotFound });
  });

  it('answers 422 for a missing or invalid MAC', async () => {
    const dealer = await ctx.as('dealer');
    for (const query of ['', '?mac=', '?mac=00:1A:79', '?mac=zz1A79000001', `?mac=${'0'.repeat(100)}`]) {
      const res = await dealer.get(`/mac-search${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors.mac, query).toEqual([ENTITY_FORM.invalidMac]);
    }
  });

  it('keeps a MAC unique per server when editing too', async () => {
    const dealer = await ctx.as('dealer');
    const a = await createAccount(ctx, 'dealer');
    const b = await createAccount(ctx, 'dealer');
    const res = await dealer.put(`/accounts/${b.id}`, { mac_address: a.mac_address.toLowerCase() });
    expect(res.status).toBe(422);
    expect(res.body.errors.mac_address).toEqual([ACCOUNTS.macTaken]);
    // Saving its own MAC again is fine.
    expect((await dealer.put(`/accounts/${a.id}`, { mac_address: a.mac_address, full_name: 'Same MAC' })).status).toBe(200);
    const bad = await dealer.put(`/accounts/${b.id}`, { mac_address: '12:34' });
    expect(bad.body.errors.mac_address).toEqual([ENTITY_FORM.invalidMac]);
  });

  it('deletes by MAC only inside the caller subtree, and frees the MAC', async () => {
    const mac = uniqueMac();
    const account = await createAccount(ctx, 'dealer', { mac_address: mac });
    const outsider = await (await ctx.as('dealer2')).post('/mac-search/delete', { mac, server_id: 1 });
    expect(outsider.status).toBe(404);
    expect((await accountRow(ctx, account.id)).deleted_at).toBeNull();
    const invalid = await (await ctx.as('dealer')).post('/mac-search/delete', { mac: 'nope', server_id: 1 });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.mac).toEqual([ENTITY_FORM.invalidMac]);

    const res = await (await ctx.as('reseller')).post('/mac-search/delete', { mac: formatMac(mac).toLowerCase(), server_id: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(ACCOUNTS.deleted);
    expect((await accountRow(ctx, account.id)).deleted_at).not.toBeNull();
    const after = await (await ctx.as('dealer')).get(`/mac-search?mac=${mac}`);
    expect(after.body.data).toMatchObject({ found: false, registered_elsewhere: false });
    expect((await (await ctx.as('dealer')).get(`/accounts/${account.id}`)).status).toBe(404);
    const again = await (await ctx.as('dealer')).post('/mac-search/delete', { mac, server_id: 1 });
    expect(again.status).toBe(404);
    await createAccount(ctx, 'dealer2', { mac_address: mac });
    await createAccount(ctx, 'dealer', { mac_address: mac });
    const audit = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'username'])
      .where('entity_id', '=', account.id)
      .where('action', '=', 'delete')
      .execute();
    expect(audit).toEqual([{ action: 'delete', username: 'reseller' }]);
  });

  it('asks for the server when the caller has the MAC on several servers', async () => {
    const mac = uniqueMac();
    await createAccount(ctx, 'admin', { mac_address: mac, server_id: 1 });
    await createAccount(ctx, 'admin', { mac_address: mac, server_id: 2 });
    const admin = await ctx.as('admin');
    const found = await admin.get(`/mac-search?mac=${mac}`);
    expect(found.body.data.accounts).toHaveLength(2);
    const ambiguous = await admin.post('/mac-search/delete', { mac });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body.errors.server_id).toEqual([ACCOUNTS.macSeveralServers]);
    expect((await admin.post('/mac-search/delete', { mac, server_id: 2 })).status).toBe(200);
    expect((await admin.get(`/mac-search?mac=${mac}`)).body.data.accounts).toHaveLength(1);
  });
});
