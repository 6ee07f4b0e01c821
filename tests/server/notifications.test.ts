/**
 * Notifications: events recorded by the server (credits received, ticket replies, expiring and
 * expired accounts, low balances, announcements), each user's inbox (read/unread, never another's),
 * its channels (422 for bad settings), and the outbox: a daily e-mail digest through a real local
 * SMTP server, signed webhooks to a local HTTP receiver, retries with backoff, no duplicate on a
 * re-run or between two racing workers, and a fresh instance over the same database delivering what
 * was left pending.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOTIFICATIONS, NOTIFICATION_TYPES } from '../../src/contract';
import { buildApp } from '../../server/app';
import { connect } from '../../server/db/connect';
import { recordEvent, scanAnnouncements, scanExpired, scanExpiring, scanLowBalance } from '../../server/notifications/events';
import { LEASE_MS, backoffMs, claim, deliverPending } from '../../server/notifications/outbox';
import { type TestContext, describeEachDatabase, pgUrl, userId } from './harness';

interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** The message's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const text = decoded(raw);
        const subject = /^Subject: (.*)$/m.exec(text)?.[1] ?? '';
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject, body: text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface Hook {
  path: string;
  body: any;
  signatureValid: boolean;
  id: string;
}

/** A webhook receiver on loopback: checks each signature; a path in `failing` answers 500 that many times. */
async function startReceiver() {
  const hooks: Hook[] = [];
  const failing = new Map<string, number>();
  const secrets = new Map<string, string>();
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      const left = failing.get(path) ?? 0;
      if (left > 0) {
        failing.set(path, left - 1);
        res.writeHead(500).end('down');
        return;
      }
      if (path.startsWith('/redirect')) {
        res.writeHead(302, { location: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/elsewhere` }).end();
        return;
      }
      const timestamp = String(req.headers['x-timestamp']);
      const expected = `sha256=${createHmac('sha256', secrets.get(path) ?? '')
        .update(`${timestamp}.${raw}`)
        .digest('hex')}`;
      hooks.push({ path, body: JSON.parse(raw), signatureValid: req.headers['x-signature'] === expected, id: String(req.headers['x-notification-id']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { hooks, failing, secrets, base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDatabase('notifications', (ctx: TestContext) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const keyConfig = () => ({ appKey: ctx.config.appKey, production: ctx.config.production });
  let n = 0;
  const event = async (recipients: number[], type: (typeof NOTIFICATION_TYPES)[number] = 'ticket_reply', now = new Date()) => {
    n += 1;
    return recordEvent(ctx.db.kysely, { type, key: `test:${ctx.kind}:${n}`, title: `Title ${n}`, text: `Event number ${n}`, link: null, recipients }, now);
  };
  /** Points a user's webhook at the receiver under its own path, with its own secret. */
  const hookFor = async (username: string) => {
    const client = await ctx.as(username);
    const path = `/hook/${username}`;
    const secret = `secret-of-${username}-0123456789`;
    receiver.secrets.set(path, secret);
    const res = await client.put('/profile/notifications', { webhook_url: `${receiver.base}${path}`, webhook_secret: secret });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return path;
  };

  /** The SMTP settings of this file's server, without a password (absent keeps the stored one). */
  const smtpBody = () => ({ host: '127.0.0.1', port: smtp.port, secure: false, user: null, from: 'panel@example.test', digest_hour: 7 });

  beforeAll(async () => {
    smtp = await startSmtp();
    receiver = await startReceiver();
    const admin = await ctx.as('admin');
    const res = await admin.put('/smtp-settings', { ...smtpBody(), password: 'smtp-password-1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
  afterAll(async () => {
    await smtp?.close();
    await receiver?.close();
  });

  it('keeps the SMTP server for admin only, its password encrypted and never answered; bad values are 422', async () => {
    const admin = await ctx.as('admin');
    const got = await admin.get('/smtp-settings');
    expect(got.body.data).toMatchObject({ host: '127.0.0.1', port: smtp.port, password_set: true, from: 'panel@example.test' });
    expect(JSON.stringify(got.body)).not.toContain('smtp-password-1');
    const stored = await ctx.db.kysely.selectFrom('settings').select('value').where('key', '=', 'smtp').executeTakeFirstOrThrow();
    expect(stored.value).not.toContain('smtp-password-1');
    expect((await (await ctx.as('dealer')).get('/smtp-settings')).status).toBe(403);
    expect((await (await ctx.as('manager')).put('/smtp-settings', { host: 'x', port: 25, from: 'a@b.test' })).status).toBe(403);
    const bad = await admin.put('/smtp-settings', { host: 'bad host!', port: 0, from: 'nobody', digest_hour: 24 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      host: [NOTIFICATIONS.smtpHostInvalid],
      port: [NOTIFICATIONS.smtpPortInvalid],
      from: [NOTIFICATIONS.smtpFromInvalid],
      digest_hour: [NOTIFICATIONS.smtpDigestHourInvalid],
    });
    expect((await admin.get('/smtp-settings')).body.data.port).toBe(smtp.port);
  });

  it('answers a user its own settings with defaults, and refuses bad ones with 422 per field, storing nothing', async () => {
    const dealer2 = await ctx.as('dealer2');
    const defaults = await dealer2.get('/profile/notifications');
    expect(defaults.status).toBe(200);
    expect(defaults.body.data).toEqual({
      email: null,
      channels: { panel: [...NOTIFICATION_TYPES], email: [...NOTIFICATION_TYPES], webhook: [...NOTIFICATION_TYPES] },
      low_balance_threshold: 10,
      expiry_reminder_days: 7,
      webhook_url: null,
      webhook_secret_set: false,
    });
    const refused = async (body: unknown, field: string, message: string) => {
      const res = await dealer2.put('/profile/notifications', body);
      expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(422);
      const messages = Object.entries(res.body.errors as Record<string, string[]>)
        .filter(([key]) => key.split('.')[0] === field)
        .flatMap(([, m]) => m);
      expect(messages, JSON.stringify(res.body.errors)).toContain(message);
    };
    await refused({ email: 'not-an-address' }, 'email', NOTIFICATIONS.emailInvalid);
    await refused({ low_balance_threshold: -1 }, 'low_balance_threshold', NOTIFICATIONS.thresholdInvalid);
    await refused({ low_balance_threshold: 2.5 }, 'low_balance_threshold', NOTIFICATIONS.thresholdInvalid);
    await refused({ expiry_reminder_days: 5 }, 'expiry_reminder_days', NOTIFICATIONS.reminderInvalid);
    await refused({ channels: { email: ['nonsense'] } }, 'channels', NOTIFICATIONS.channelsInvalid);
    await refused({ channels: { email: ['low_balance', 'low_balance'] } }, 'channels', NOTIFICATIONS.channelsInvalid);
    await refused({ webhook_url: 'ftp://127.0.0.1/x', webhook_secret: 'a-long-enough-secret' }, 'webhook_url', NOTIFICATIONS.webhookUrlInvalid);
    await refused({ webhook_url: 'http://user:pw@127.0.0.1/x', webhook_secret: 'a-long-enough-secret' }, 'webhook_url', NOTIFICATIONS.webhookUrlInvalid);
    await refused({ webhook_url: 'javascript:alert(1)', webhook_secret: 'a-long-enough-secret' }, 'webhook_url', NOTIFICATIONS.webhookUrlInvalid);
    await refused({ webhook_url: `${receiver.base}/hook/x`, webhook_secret: 'short' }, 'webhook_secret', NOTIFICATIONS.webhookSecretInvalid);
    // A URL without any secret cannot sign its calls.
    await refused({ webhook_url: `${receiver.base}/hook/x` }, 'webhook_secret', NOTIFICATIONS.webhookSecretRequired);
    expect((await dealer2.get('/profile/notifications')).body.data).toEqual(defaults.body.data);

    const saved = await dealer2.put('/profile/notifications', { email: 'dealer2@example.test', low_balance_threshold: 0, channels: { webhook: ['low_balance'] } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      email: 'dealer2@example.test',
      low_balance_threshold: 0,
      channels: { webhook: ['low_balance'], panel: [...NOTIFICATION_TYPES] },
    });
    expect((await ctx.db.kysely.selectFrom('users').select('email').where('username', '=', 'dealer2').executeTakeFirstOrThrow()).email).toBe('dealer2@example.test');
    // The secret is stored encrypted and only said to be set.
    await hookFor('dealer2');
    const after = await dealer2.get('/profile/notifications');
    expect(after.body.data.webhook_secret_set).toBe(true);
    expect(JSON.stringify(after.body)).not.toContain('secret-of-dealer2');
    const row = await ctx.db.kysely
      .selectFrom('notification_settings')
      .select('webhook_secret_enc')
      .where('user_id', '=', await userId(ctx, 'dealer2'))
      .executeTakeFirstOrThrow();
    expect(row.webhook_secret_enc).not.toContain('secret-of-dealer2');
  });

  it('tells a member of the credits its parent added, in its inbox only: another user cannot read or mark it (404)', async () => {
    const reseller = await ctx.as('reseller');
    const dealer = await ctx.as('dealer');
    const dealerId = await userId(ctx, 'dealer');
    const added = await reseller.post(`/dealers/${dealerId}/credits`, { action: 'renew', credits: 10 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const inbox = await dealer.get('/notifications');
    expect(inbox.status).toBe(200);
    const received = inbox.body.data.find((x: any) => x.type === 'credits_received');
    expect(received).toMatchObject({ title: NOTIFICATIONS.types.credits_received, read_at: null, link: '/transactions' });
    expect(received.text).toBe(NOTIFICATIONS.creditsReceived(10, 'reseller'));
    expect(inbox.body.unread_count).toBeGreaterThanOrEqual(1);

    // Someone else's notification is not found, and stays unread.
    for (const other of ['dealer2', 'reseller', 'admin']) {
      const client = await ctx.as(other);
      expect((await client.post(`/notifications/${received.id}/read`)).status).toBe(404);
      expect((await client.get('/notifications')).body.data.some((x: any) => x.id === received.id)).toBe(false);
    }
    expect((await dealer.post('/notifications/99999999/read')).status).toBe(404);
    expect((await dealer.post('/notifications/abc/read')).status).toBe(422);
    expect((await dealer.get('/notifications?unread=true')).body.data.some((x: any) => x.id === received.id)).toBe(true);

    const marked = await dealer.post(`/notifications/${received.id}/read`);
    expect(marked.status).toBe(200);
    expect(marked.body.data.read_at).not.toBeNull();
    // Marking again keeps the first time.
    expect((await dealer.post(`/notifications/${received.id}/read`)).body.data.read_at).toBe(marked.body.data.read_at);
    expect((await dealer.get('/notifications?unread=true')).body.data.some((x: any) => x.id === received.id)).toBe(false);

    await event([dealerId]);
    await event([dealerId, await userId(ctx, 'dealer2')]);
    const before2 = (await (await ctx.as('dealer2')).get('/notifications/unread-count')).body.unread_count;
    expect((await dealer.get('/notifications/unread-count')).body.unread_count).toBeGreaterThanOrEqual(2);
    const all = await dealer.post('/notifications/read-all');
    expect(all.status).toBe(200);
    expect(all.body.message).toBe(NOTIFICATIONS.allMarkedRead);
    expect(all.body.data.updated).toBeGreaterThanOrEqual(2);
    expect((await dealer.get('/notifications/unread-count')).body.unread_count).toBe(0);
    // Another user's unread ones are untouched.
    expect((await (await ctx.as('dealer2')).get('/notifications/unread-count')).body.unread_count).toBe(before2);
  });

  it('tells the other side of a ticket of each reply', async () => {
    const dealer = await ctx.as('dealer');
    const reseller = await ctx.as('reseller');
    const categories = (await dealer.get('/tickets-categories')).body.data as Array<{ id: number }>;
    const ticket = await dealer.post('/tickets', { subject: 'Notify me', message: 'Hello', category_id: categories[0].id, priority: 'high' });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    const id = ticket.body.data.id;
    // The owner writes first: nobody on staff has written, so its parent is told.
    expect((await dealer.post(`/tickets/${id}/replies`, { message: 'Anyone?' })).status).toBe(201);
    const toReseller = (await reseller.get('/notifications')).body.data.find((x: any) => x.type === 'ticket_reply' && x.link === `/tickets?ticket=${id}`);
    expect(toReseller?.text).toBe(NOTIFICATIONS.ticketReply('Notify me', 'dealer'));
    expect((await reseller.post(`/tickets/${id}/replies`, { message: 'Here' })).status).toBe(201);
    const toDealer = (await dealer.get('/notifications')).body.data.filter((x: any) => x.type === 'ticket_reply' && x.link === `/tickets?ticket=${id}`);
    expect(toDealer.map((x: any) => x.text)).toEqual([NOTIFICATIONS.ticketReply('Notify me', 'reseller')]);
  });

  it('records expiring, expired, low balance and announcement events once each, for the users they concern', async () => {
    const db = ctx.db.kysely;
    const now = new Date();
    const dealerId = await userId(ctx, 'dealer');
    const accounts = await db
      .selectFrom('accounts')
      .select(['id', 'login'])
      .where('owner_id', '=', dealerId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(3)
      .execute();
    expect(accounts.length).toBe(3);
    const [soon, later, gone] = accounts;
    const setExpiry = (id: number, at: Date) => db.updateTable('accounts').set({ expiry_date: at.toISOString(), status: 'active' }).where('id', '=', id).execute();
    await setExpiry(soon.id, new Date(now.getTime() + 2 * DAY));
    await setExpiry(later.id, new Date(now.getTime() + 20 * DAY));
    await setExpiry(gone.id, new Date(now.getTime() - HOUR));
    await (await ctx.as('dealer')).put('/profile/notifications', { expiry_reminder_days: 7 });

    await scanExpiring(db, now);
    await scanExpired(db, now);
    const keys = async () => (await db.selectFrom('notification_events').select('dedupe_key').execute()).map((r) => r.dedupe_key);
    const expiring = (await keys()).filter((k) => k.startsWith(`account_expiring:${soon.id}:`) || k.startsWith(`account_expiring:${later.id}:`));
    expect(expiring).toEqual([expect.stringMatching(new RegExp(`^account_expiring:${soon.id}:`))]);
    expect((await keys()).filter((k) => k.startsWith(`account_expired:${gone.id}:`))).toHaveLength(1);
    // Within a 30-day window the later one is due too; the first is not told twice.
    await (await ctx.as('dealer')).put('/profile/notifications', { expiry_reminder_days: 30 });
    await scanExpiring(db, now);
    await scanExpiring(db, now);
    await scanExpired(db, now);
    const again = await keys();
    expect(again.filter((k) => k.startsWith(`account_expiring:${soon.id}:`))).toHaveLength(1);
    expect(again.filter((k) => k.startsWith(`account_expiring:${later.id}:`))).toHaveLength(1);
    expect(again.filter((k) => k.startsWith(`account_expired:${gone.id}:`))).toHaveLength(1);
    const inbox = (await (await ctx.as('dealer')).get('/notifications?per_page=100')).body.data;
    expect(inbox.find((x: any) => x.type === 'account_expiring' && x.text.includes(soon.login))).toBeDefined();
    expect(inbox.find((x: any) => x.type === 'account_expired' && x.text.includes(gone.login))).toBeDefined();
    // Only the owner is told.
    expect((await (await ctx.as('reseller')).get('/notifications?per_page=100')).body.data.some((x: any) => x.type === 'account_expiring')).toBe(false);

    // Low balance: below the user's threshold, once per fall below it.
    const reseller2 = await ctx.as('reseller2');
    const balance = (await db.selectFrom('users').select('credits').where('username', '=', 'reseller2').executeTakeFirstOrThrow()).credits;
    await reseller2.put('/profile/notifications', { low_balance_threshold: Number(balance) + 1 });
    await scanLowBalance(db, now);
    await scanLowBalance(db, now);
    const low = (await reseller2.get('/notifications?per_page=100')).body.data.filter((x: any) => x.type === 'low_balance');
    expect(low).toHaveLength(1);
    expect(low[0].text).toBe(NOTIFICATIONS.lowBalance(Number(balance), Number(balance) + 1));

    // An announcement for dealers reaches dealers only, once.
    const admin = await ctx.as('admin');
    const created = await admin.post('/announcements', { title: `For dealers ${ctx.kind}`, content: '<p>Hello dealers</p>', target_roles: ['dealer'], is_active: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await scanAnnouncements(db, new Date());
    await scanAnnouncements(db, new Date());
    const told = async (username: string) =>
      (await (await ctx.as(username)).get('/notifications?per_page=100')).body.data.filter(
        (x: any) => x.type === 'announcement' && x.title === `For dealers ${ctx.kind}`,
      );
    expect(await told('dealer')).toHaveLength(1);
    expect(await told('dealer2')).toHaveLength(1);
    expect(await told('reseller')).toHaveLength(0);
    expect(await told('manager')).toHaveLength(0);
  });

  it("tells an announcement's audience as soon as it goes live, once: the scan afterwards adds no duplicate", async () => {
    const db = ctx.db.kysely;
    const admin = await ctx.as('admin');
    const told = async (username: string, title: string) =>
      (await (await ctx.as(username)).get('/notifications?per_page=100')).body.data.filter((x: any) => x.type === 'announcement' && x.title === title);
    const events = async (id: number) => (await db.selectFrom('notification_events').select('id').where('dedupe_key', '=', `announcement:${id}`).execute()).length;
    const publish = async (title: string, extra: Record<string, unknown> = {}) => {
      const res = await admin.post('/announcements', { title, content: `<p>${title}</p>`, target_roles: ['reseller'], is_active: true, ...extra });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as number;
    };

    const now = `For resellers now ${ctx.kind}`;
    const id = await publish(now);
    // No scan has run: the create itself told them.
    expect(await told('reseller', now)).toHaveLength(1);
    expect(await told('reseller2', now)).toHaveLength(1);
    expect((await told('reseller', now))[0]).toMatchObject({ read_at: null, link: `/user-announcements?open=${id}`, text: now });
    expect(await told('dealer', now)).toHaveLength(0);
    expect(await told('manager', now)).toHaveLength(0);
    expect(await scanAnnouncements(db, new Date())).toBe(0);
    expect(await events(id)).toBe(1);
    expect(await told('reseller', now)).toHaveLength(1);
    // Editing it or switching it off and on again does not tell it again.
    expect((await admin.put(`/announcements/${id}`, { title: now, content: '<p>Changed</p>', target_roles: ['reseller'], is_active: true })).status).toBe(200);
    expect((await admin.patch(`/announcements/${id}/toggle-status`)).status).toBe(200);
    expect((await admin.patch(`/announcements/${id}/toggle-status`)).status).toBe(200);
    expect(await events(id)).toBe(1);
    expect(await told('reseller', now)).toHaveLength(1);

    // Switched off when published: told when switched on.
    const off = `Switched on later ${ctx.kind}`;
    const offId = await publish(off, { is_active: false });
    expect(await told('reseller', off)).toHaveLength(0);
    expect((await admin.patch(`/announcements/${offId}/toggle-status`)).status).toBe(200);
    expect(await told('reseller', off)).toHaveLength(1);

    // Scheduled: not told before its start; an edit that makes it live now tells it.
    const later = `Scheduled ${ctx.kind}`;
    const tomorrow = new Date(Date.now() + DAY).toISOString();
    const laterId = await publish(later, { starts_at: tomorrow });
    expect(await told('reseller', later)).toHaveLength(0);
    expect(await events(laterId)).toBe(0);
    expect(
      (await admin.put(`/announcements/${laterId}`, { title: later, content: `<p>${later}</p>`, target_roles: ['reseller'], is_active: true, starts_at: null })).status,
    ).toBe(200);
    expect(await told('reseller', later)).toHaveLength(1);
    expect(await told('dealer', later)).toHaveLength(0);

    // The scan remains the catch-up for one that reaches its start on its own.
    const scheduled = `Starts on its own ${ctx.kind}`;
    const scheduledId = await publish(scheduled, { starts_at: tomorrow });
    expect(await told('reseller', scheduled)).toHaveLength(0);
    await scanAnnouncements(db, new Date(Date.now() + 2 * DAY));
    expect(await told('reseller', scheduled)).toHaveLength(1);
    await scanAnnouncements(db, new Date(Date.now() + 2 * DAY));
    expect(await events(scheduledId)).toBe(1);
    expect(await told('reseller', scheduled)).toHaveLength(1);
    await admin.delete(`/announcements/${scheduledId}`);
  });

  it('mails one daily digest per user grouping its events, at the digest hour, and never again', async () => {
    const manager = await ctx.as('manager');
    await manager.put('/profile/notifications', { email: 'manager@example.test' });
    const managerId = await userId(ctx, 'manager');
    const at = new Date(Date.UTC(2031, 0, 10, 9, 0));
    await event([managerId], 'ticket_reply', at);
    await event([managerId], 'ticket_reply', at);
    await event([managerId], 'low_balance', at);
    await recordEvent(
      ctx.db.kysely,
      { type: 'announcement', key: `test:${ctx.kind}:ann`, title: 'Maintenance window', text: 'Sunday night', link: null, recipients: [managerId] },
      at,
    );

    // Before the next digest hour (07:00 UTC the day after) nothing is sent.
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(at.getTime() + 12 * HOUR) });
    expect(smtp.mails.filter((m) => m.to === 'manager@example.test')).toHaveLength(0);

    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(Date.UTC(2031, 0, 11, 7, 0)) });
    const mails = smtp.mails.filter((m) => m.to === 'manager@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(NOTIFICATIONS.digestSubject(4));
    expect(mails[0].body).toContain(`${NOTIFICATIONS.types.ticket_reply} (2)`);
    expect(mails[0].body).toContain(`${NOTIFICATIONS.types.low_balance} (1)`);
    expect(mails[0].body).toContain('Maintenance window: Sunday night');

    // A re-run sends nothing; the log shows each event sent once by e-mail.
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(Date.UTC(2031, 0, 12, 8, 0)) });
    expect(smtp.mails.filter((m) => m.to === 'manager@example.test')).toHaveLength(1);
    const log = await manager.get('/notifications/deliveries?per_page=100');
    const emails = log.body.data.filter((d: any) => d.channel === 'email');
    expect(emails.length).toBeGreaterThanOrEqual(4);
    expect(emails.every((d: any) => d.status === 'sent' && d.attempts === 1 && d.last_error === null)).toBe(true);
    // Another user sees none of it.
    expect((await (await ctx.as('manager2')).get('/notifications/deliveries')).body.data).toEqual([]);
  });

  it('retries a webhook the receiver refused, with backoff, then delivers it signed, once', async () => {
    const path = await hookFor('reseller');
    const resellerId = await userId(ctx, 'reseller');
    receiver.failing.set(path, 2);
    const start = new Date(Date.UTC(2032, 5, 1, 12));
    const eventId = await event([resellerId], 'ticket_reply', start);
    expect(eventId).not.toBeNull();
    const mine = () => receiver.hooks.filter((h) => h.path === path && h.body.id === eventId);
    const row = () =>
      ctx.db.kysely.selectFrom('notification_outbox').selectAll().where('event_id', '=', eventId!).where('channel', '=', 'webhook').executeTakeFirstOrThrow();

    await deliverPending(ctx.db.kysely, keyConfig(), { now: start });
    let r = await row();
    expect(r).toMatchObject({ status: 'pending', attempts: 1, last_error: NOTIFICATIONS.webhookStatus(500) });
    expect(Date.parse(r.next_attempt_at)).toBe(start.getTime() + backoffMs(1));
    // Not due yet: nothing is tried.
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(start.getTime() + backoffMs(1) - 1000) });
    expect((await row()).attempts).toBe(1);
    const second = new Date(start.getTime() + backoffMs(1));
    await deliverPending(ctx.db.kysely, keyConfig(), { now: second });
    r = await row();
    expect(r).toMatchObject({ status: 'pending', attempts: 2 });
    expect(Date.parse(r.next_attempt_at)).toBe(second.getTime() + backoffMs(2));
    expect(backoffMs(2)).toBe(2 * backoffMs(1));
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(second.getTime() + backoffMs(2)) });
    expect(await row()).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(mine()).toHaveLength(1);
    expect(mine()[0].signatureValid).toBe(true);
    expect(mine()[0].body).toMatchObject({ id: eventId, type: 'ticket_reply', title: expect.any(String), text: expect.any(String) });

    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(second.getTime() + DAY) });
    expect(mine()).toHaveLength(1);
    const log = (await (await ctx.as('reseller')).get('/notifications/deliveries?per_page=100')).body.data.find(
      (d: any) => d.channel === 'webhook' && d.status === 'sent',
    );
    expect(log).toMatchObject({ attempts: 3, last_error: null });
  });

  it('never follows a redirect: the attempt fails and is logged', async () => {
    const client = await ctx.as('manager2');
    receiver.secrets.set('/redirect/manager2', 'redirect-secret-0123456789');
    expect((await client.put('/profile/notifications', { webhook_url: `${receiver.base}/redirect/manager2`, webhook_secret: 'redirect-secret-0123456789' })).status).toBe(
      200,
    );
    const id = await event([await userId(ctx, 'manager2')], 'announcement', new Date(Date.UTC(2033, 0, 1)));
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(Date.UTC(2033, 0, 1)) });
    expect(receiver.hooks.some((h) => h.path === '/hook/elsewhere')).toBe(false);
    const row = await ctx.db.kysely.selectFrom('notification_outbox').selectAll().where('event_id', '=', id!).where('channel', '=', 'webhook').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: NOTIFICATIONS.webhookStatus(302) });
    await client.put('/profile/notifications', { webhook_url: null });
  });

  it('delivers each event once when the same event is recorded again and two workers race', async () => {
    const path = await hookFor('manager');
    const managerId = await userId(ctx, 'manager');
    const at = new Date(Date.UTC(2034, 2, 3, 12));
    const same = { type: 'ticket_reply' as const, key: `race:${ctx.kind}:same`, title: 'Same', text: 'Same', link: null, recipients: [managerId] };
    const first = await recordEvent(ctx.db.kysely, same, at);
    expect(await recordEvent(ctx.db.kysely, same, at)).toBeNull();
    const ids = [first!];
    for (let i = 0; i < 12; i++) ids.push((await event([managerId], 'ticket_reply', at))!);
    const due = new Date(Date.UTC(2034, 2, 4, 7));
    await Promise.all([
      deliverPending(ctx.db.kysely, keyConfig(), { now: due, owner: 'worker-a' }),
      deliverPending(ctx.db.kysely, keyConfig(), { now: due, owner: 'worker-b' }),
      deliverPending(ctx.db.kysely, keyConfig(), { now: due, owner: 'worker-c' }),
    ]);
    const got = receiver.hooks.filter((h) => h.path === path && ids.includes(h.body.id)).map((h) => h.body.id);
    expect(got.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(got.every((h) => h)).toBe(true);
    // One digest for the 13 e-mails, not one per worker.
    const digests = smtp.mails.filter((m) => m.to === 'manager@example.test' && m.body.includes('Same'));
    expect(digests).toHaveLength(1);
    const rows = await ctx.db.kysely.selectFrom('notification_outbox').select(['status', 'attempts']).where('event_id', 'in', ids).execute();
    expect(rows.every((r) => r.status === 'sent' && Number(r.attempts) === 1)).toBe(true);
    // The database itself refuses a second row for one (event, user, channel).
    await expect(
      ctx.db.kysely
        .insertInto('notification_outbox')
        .values({ event_id: first!, user_id: managerId, channel: 'webhook', status: 'pending', next_attempt_at: at.toISOString(), created_at: at.toISOString() })
        .execute(),
    ).rejects.toThrow();
    await (await ctx.as('manager')).put('/profile/notifications', { webhook_url: null });
  });

  it('a fresh instance over the same database delivers what was left pending, including rows of a worker that died', async () => {
    const path = await hookFor('dealer2');
    const dealer2 = await userId(ctx, 'dealer2');
    await (await ctx.as('dealer2')).put('/profile/notifications', { channels: { webhook: [...NOTIFICATION_TYPES] } });
    const at = new Date(Date.UTC(2035, 0, 1, 12));
    const left = (await event([dealer2], 'ticket_reply', at))!;
    const held = (await event([dealer2], 'ticket_reply', at))!;
    // A worker claims one and dies before sending it: its lease runs out.
    const claimed = await claim(ctx.db.kysely, { channel: 'webhook', now: at, owner: 'dead-worker', userId: dealer2, limit: 1 });
    expect(claimed.map((r) => r.event_id)).toEqual([left]);

    // A second connection and app, as after a restart.
    let url: string;
    let options: { schema?: string } = {};
    if (ctx.kind === 'postgres') {
      const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(ctx.db.kysely);
      url = pgUrl!;
      options = { schema: rows[0].s };
    } else {
      const { rows } = await sql<{ name: string; file: string }>`pragma database_list`.execute(ctx.db.kysely);
      url = `sqlite:${rows.find((r) => r.name === 'main')!.file}`;
    }
    const db2 = connect(url, options);
    const app2 = await buildApp({ db: db2, config: ctx.config, panelDir: null });
    try {
      await deliverPending(db2.kysely, keyConfig(), { now: at });
      const mine = () => receiver.hooks.filter((h) => h.path === path && [left, held].includes(h.body.id)).map((h) => h.body.id);
      expect(mine()).toEqual([held]);
      await deliverPending(db2.kysely, keyConfig(), { now: new Date(at.getTime() + LEASE_MS + 1) });
      expect(mine().sort()).toEqual([left, held].sort());
      expect(receiver.hooks.filter((h) => h.path === path && [left, held].includes(h.body.id)).every((h) => h.signatureValid)).toBe(true);
    } finally {
      await app2.close();
      await db2.close();
    }
  });
  it("links the digest to the panel's public address in its text and HTML; a bad address is 422 and stored nowhere; without one no links", async () => {
    const admin = await ctx.as('admin');
    const panelUrl = async () => (await admin.get('/smtp-settings')).body.data.panel_url;
    expect(await panelUrl()).toBeNull();
    for (const bad of [
      'javascript:alert(1)',
      'ftp://x',
      'http://x/?a=b',
      'http://x/#top',
      'https://user:pw@x/',
      '/relative',
      'http://exa mple.test',
      'panel.example.test',
    ]) {
      const res = await admin.put('/smtp-settings', { ...smtpBody(), panel_url: bad, digest_hour: 9 });
      expect(res.status, bad).toBe(422);
      expect(res.body.errors, bad).toEqual({ panel_url: [NOTIFICATIONS.panelUrlInvalid] });
    }
    const unchanged = (await admin.get('/smtp-settings')).body.data;
    expect(unchanged).toMatchObject({ panel_url: null, digest_hour: 7 });
    expect((await ctx.db.kysely.selectFrom('settings').select('value').where('key', '=', 'smtp').executeTakeFirstOrThrow()).value).not.toContain('panel_url":"');

    const saved = await admin.put('/smtp-settings', { ...smtpBody(), panel_url: 'https://panel.example.test/' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.panel_url).toBe('https://panel.example.test/');
    // A change that does not name it keeps it.
    expect((await admin.put('/smtp-settings', smtpBody())).body.data.panel_url).toBe('https://panel.example.test/');

    const reseller2 = await ctx.as('reseller2');
    expect((await reseller2.put('/profile/notifications', { email: 'reseller2@example.test' })).status).toBe(200);
    const reseller2Id = await userId(ctx, 'reseller2');
    const mailsTo = () => smtp.mails.filter((m) => m.to === 'reseller2@example.test');
    /** The text and HTML parts of a mail, in the order nodemailer writes them. */
    const parts = (body: string) => {
      const at = body.indexOf('Content-Type: text/html');
      expect(at).toBeGreaterThan(0);
      return { text: body.slice(0, at), html: body.slice(at) };
    };

    const linked = new Date(Date.UTC(2036, 0, 10, 9));
    await recordEvent(
      ctx.db.kysely,
      {
        type: 'account_expiring',
        key: `digest-link:${ctx.kind}`,
        title: 'Expiring',
        text: 'Account linked-one expires soon.',
        link: '/accounts?open=7&from=digest',
        recipients: [reseller2Id],
      },
      linked,
    );
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(Date.UTC(2036, 0, 11, 7)) });
    const withLinks = mailsTo().filter((m) => m.body.includes('linked-one'));
    expect(withLinks).toHaveLength(1);
    const first = parts(withLinks[0].body);
    expect(first.text).toContain('Account linked-one expires soon. https://panel.example.test/accounts?open=7&from=digest');
    expect(first.text).toContain(`${NOTIFICATIONS.openPage}: https://panel.example.test/notifications`);
    expect(first.html).toContain(`<a href="https://panel.example.test/accounts?open=7&amp;from=digest">${NOTIFICATIONS.digestOpen}</a>`);
    expect(first.html).toContain(`<a href="https://panel.example.test/notifications">${NOTIFICATIONS.openPage}</a>`);

    // Cleared: the next digest still goes out, without links.
    const cleared = await admin.put('/smtp-settings', { ...smtpBody(), panel_url: '' });
    expect(cleared.body.data.panel_url).toBeNull();
    await recordEvent(
      ctx.db.kysely,
      {
        type: 'account_expiring',
        key: `digest-nolink:${ctx.kind}`,
        title: 'Expiring',
        text: 'Account unlinked-one expires soon.',
        link: '/accounts?open=8',
        recipients: [reseller2Id],
      },
      new Date(Date.UTC(2037, 0, 10, 9)),
    );
    await deliverPending(ctx.db.kysely, keyConfig(), { now: new Date(Date.UTC(2037, 0, 11, 7)) });
    const plain = mailsTo().filter((m) => m.body.includes('unlinked-one'));
    expect(plain).toHaveLength(1);
    const second = parts(plain[0].body);
    expect(second.text).toContain('Account unlinked-one expires soon.');
    expect(plain[0].body).not.toContain('panel.example.test');
    expect(second.html).not.toContain('<a ');
  });
});
