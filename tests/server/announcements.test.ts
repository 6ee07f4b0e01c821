/**
 * Announcements over real HTTP: the admin's CRUD, filters and stats; who reads what (roles, chosen
 * users, dates, the switch); read state and unread counts; and HTML sanitising on save and on serve,
 * against a list of known XSS payloads and random hostile markup.
 */
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_FORM, FIELD_RULES, TICKETS } from '../../src/contract';
import { ALLOWED_SCHEMES, ALLOWED_TAGS, LINK_ATTRIBUTES, sanitizeAnnouncementHtml } from '../../server/announcements/sanitize';
import { type Client, describeEachDatabase, userId } from './harness';

// jsdom ships no types; only its JSDOM constructor is used here.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: Window } };

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Every problem a piece of served HTML has, by the allowlist (empty: safe to put in the page). */
function htmlProblems(html: string): string[] {
  const problems: string[] = [];
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (!(ALLOWED_TAGS as readonly string[]).includes(tag)) problems.push(`tag <${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      const allowed = tag === 'a' ? (LINK_ATTRIBUTES as readonly string[]) : tag === 'ol' ? ['start'] : [];
      if (!allowed.includes(attr.name)) problems.push(`attribute ${attr.name} on <${tag}>`);
      if (attr.name === 'href') {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(attr.value.trim())?.[1]?.toLowerCase();
        if (!scheme || !(ALLOWED_SCHEMES as readonly string[]).includes(scheme)) problems.push(`href ${attr.value}`);
      }
    }
  }
  return problems;
}

/** Known XSS payloads (OWASP filter evasion, mutation XSS, style overlays). */
const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r=1></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="//evil.example">protocol-relative</a>',
  '<a href="https://ok.example" onmouseover="alert(1)">hover</a>',
  '<p onclick="alert(1)">click</p>',
  '<details open ontoggle=alert(1)>x</details>',
  '<input autofocus onfocus=alert(1)>',
  '<form action="javascript:alert(1)"><button>go</button></form>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<style>body{display:none}</style>',
  '<p style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:99999">overlay</p>',
  '<div style="background:url(javascript:alert(1))">bg</div>',
  '<span style="width:expression(alert(1))">ie</span>',
  '<p class="ant-modal-mask">class</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '"><script>alert(1)</script>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<video><source onerror="alert(1)"></video>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<template><img src=x onerror=alert(1)></template>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
];

describe('announcement HTML sanitising (unit)', () => {
  it('keeps the editor’s formatting and safe links', () => {
    expect(sanitizeAnnouncementHtml('<h2>Title</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s></p><ul><li>a</li></ul><blockquote>q</blockquote>')).toBe(
      '<h2>Title</h2><p><strong>Bold</strong> <em>it</em> <u>u</u> <s>s</s></p><ul><li>a</li></ul><blockquote>q</blockquote>',
    );
    expect(sanitizeAnnouncementHtml('<a href="https://example.com/x">x</a>')).toBe(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">x</a>',
    );
  });

  it.each(XSS_PAYLOADS)('neutralises %s', (payload) => {
    expect(htmlProblems(sanitizeAnnouncementHtml(`<p>before</p>${payload}<p>after</p>`))).toEqual([]);
  });

  it('stores a paragraph inside a paragraph the way a second pass reads it', () => {
    const once = sanitizeAnnouncementHtml('<p>alert(1)<p>class</p></p>');
    expect(once).toBe('<p>alert(1)</p><p>class</p><p></p>');
    expect(sanitizeAnnouncementHtml(once)).toBe(once);
  });

  it('leaves only allowlisted markup for any hostile mix, and is stable when applied again', () => {
    const pieces = fc.constantFrom(
      ...XSS_PAYLOADS,
      '<p>',
      '</p>',
      '<a href="',
      '">',
      '<',
      '>',
      '"',
      "'",
      '=',
      'on',
      'error',
      'javascript:',
      '&#x3C;',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      'text',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 12 }), (parts) => {
        const once = sanitizeAnnouncementHtml(parts.join(''));
        expect(htmlProblems(once)).toEqual([]);
        expect(sanitizeAnnouncementHtml(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

describeEachDatabase('announcements', (ctx) => {
  let admin: Client, manager: Client, manager2: Client, reseller: Client, reseller2: Client, dealer: Client, dealer2: Client;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    [admin, manager, manager2, reseller, reseller2, dealer, dealer2] = await Promise.all(
      ['admin', 'manager', 'manager2', 'reseller', 'reseller2', 'dealer', 'dealer2'].map((u) => ctx.as(u)),
    );
    for (const u of ['manager', 'manager2', 'reseller', 'reseller2', 'dealer', 'dealer2']) ids[u] = await userId(ctx, u);
  });

  const create = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/announcements', { title, content: `<p>${title} body</p>`, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: number; title: string; status: string; content: string };
  };
  const readerTitles = async (reader: Client) => {
    const res = await reader.get('/user/announcements?per_page=100');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as Array<{ title: string }>).map((a) => a.title);
  };

  it('validates the form with its messages', async () => {
    const empty = await admin.post('/announcements', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({ title: [ANNOUNCEMENT_FORM.titleRequired], content: [ANNOUNCEMENT_FORM.contentRequired] });
    // The editor's empty document, and markup that sanitising empties, are no content.
    for (const content of ['<p></p>', '<p>&nbsp;</p>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>']) {
      const res = await admin.post('/announcements', { title: 'T', content });
      expect(res.status, content).toBe(422);
      expect(res.body.errors, content).toEqual({ content: [ANNOUNCEMENT_FORM.contentRequired] });
    }
    const bad = await admin.post('/announcements', {
      title: 'T',
      content: '<p>x</p>',
      type: 'alert',
      priority: 'asap',
      target_roles: ['admin'],
      starts_at: 'soon',
    });
    expect(bad.body.errors).toMatchObject({
      type: [ANNOUNCEMENT_FORM.typeInvalid],
      priority: [TICKETS.priorityInvalid],
      target_roles: [ANNOUNCEMENT_FORM.rolesInvalid],
      starts_at: [FIELD_RULES.validDate],
    });
    const order = await admin.post('/announcements', { title: 'T', content: '<p>x</p>', starts_at: at(2 * HOUR), expires_at: at(HOUR) });
    expect(order.body.errors).toEqual({ expires_at: [ANNOUNCEMENT_FORM.expiresAfterStart] });
    const usersWithoutRole = await admin.post('/announcements', { title: 'T', content: '<p>x</p>', target_users: [ids.dealer] });
    expect(usersWithoutRole.body.errors).toEqual({ target_users: [ANNOUNCEMENT_FORM.usersNeedRole] });
    const wrongRole = await admin.post('/announcements', { title: 'T', content: '<p>x</p>', target_roles: ['reseller'], target_users: [ids.dealer] });
    expect(wrongRole.body.errors).toEqual({ target_users: [ANNOUNCEMENT_FORM.usersInvalid] });
  });

  it('creates, shows, updates, toggles and deletes; only admin manages, only the roles below read', async () => {
    const created = await create('Lifecycle', { type: 'warning', priority: 'high', target_roles: ['dealer', 'reseller', 'dealer'], target_users: [ids.dealer2] });
    expect(created).toMatchObject({
      type: 'warning',
      priority: 'high',
      target_roles: ['dealer', 'reseller'],
      target_users: [ids.dealer2],
      is_active: true,
      status: 'active',
      creator: { username: 'admin' },
    });
    const shown = await admin.get(`/announcements/${created.id}`);
    expect(shown.body.data.target_user_details).toEqual([{ id: ids.dealer2, name: 'Dora Dealer', username: 'dealer2', role: 'dealer' }]);
    const updated = await admin.put(`/announcements/${created.id}`, { title: 'Lifecycle 2', content: '<p>new</p>', target_roles: [] });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ title: 'Lifecycle 2', content: '<p>new</p>', target_roles: [], target_users: [], type: 'info', priority: 'medium' });
    const off = await admin.patch(`/announcements/${created.id}/toggle-status`);
    expect(off.body).toMatchObject({ message: ANNOUNCEMENT_FORM.deactivated, data: { is_active: false, status: 'inactive' } });
    expect(await readerTitles(dealer)).not.toContain('Lifecycle 2');
    const on = await admin.patch(`/announcements/${created.id}/toggle-status`);
    expect(on.body).toMatchObject({ message: ANNOUNCEMENT_FORM.activated, data: { is_active: true } });
    expect(await readerTitles(dealer)).toContain('Lifecycle 2');
    for (const reader of [manager, reseller, dealer]) {
      expect((await reader.get('/announcements')).status).toBe(403);
      expect((await reader.post('/announcements', { title: 'X', content: '<p>x</p>' })).status).toBe(403);
      expect((await reader.patch(`/announcements/${created.id}/toggle-status`)).status).toBe(403);
    }
    expect((await admin.get('/user/announcements')).status).toBe(403);
    expect((await admin.delete(`/announcements/${created.id}`)).status).toBe(204);
    expect((await admin.get(`/announcements/${created.id}`)).status).toBe(404);
    expect(await readerTitles(dealer)).not.toContain('Lifecycle 2');
  });

  it('shows each reader only what is aimed at its role or at it, live and within its dates', async () => {
    await create('T-everyone');
    await create('T-dealers', { target_roles: ['dealer'] });
    await create('T-reseller2-only', { target_roles: ['reseller'], target_users: [ids.reseller2] });
    // Users chosen for the first role narrow that role only: manager (not manager2) and every dealer.
    await create('T-manager-and-dealers', { target_roles: ['manager', 'dealer'], target_users: [ids.manager] });
    await create('T-switched-off', { is_active: false });
    await create('T-scheduled', { starts_at: at(24 * HOUR) });
    await create('T-expired', { starts_at: at(-48 * HOUR), expires_at: at(-HOUR) });
    await create('T-started', { starts_at: at(-HOUR), expires_at: at(48 * HOUR) });

    const expected: Record<string, string[]> = {
      manager: ['T-everyone', 'T-manager-and-dealers', 'T-started'],
      manager2: ['T-everyone', 'T-started'],
      reseller: ['T-everyone', 'T-started'],
      reseller2: ['T-everyone', 'T-reseller2-only', 'T-started'],
      dealer: ['T-everyone', 'T-dealers', 'T-manager-and-dealers', 'T-started'],
      dealer2: ['T-everyone', 'T-dealers', 'T-manager-and-dealers', 'T-started'],
    };
    const clients: Record<string, Client> = { manager, manager2, reseller, reseller2, dealer, dealer2 };
    for (const [username, titles] of Object.entries(expected)) {
      const seen = (await readerTitles(clients[username])).filter((t) => t.startsWith('T-'));
      expect(seen.sort(), username).toEqual([...titles].sort());
    }
    // Not aimed at the caller: 404, as for anything else out of reach.
    const hidden = (await admin.get('/announcements?search=T-reseller2-only')).body.data[0].id;
    expect((await reseller.get(`/user/announcements/${hidden}`)).status).toBe(404);
    expect((await reseller2.get(`/user/announcements/${hidden}`)).status).toBe(200);
    const scheduled = (await admin.get('/announcements?search=T-scheduled')).body.data[0];
    expect(scheduled.status).toBe('scheduled');
    expect((await dealer.get(`/user/announcements/${scheduled.id}`)).status).toBe(404);
  });

  it('keeps a read state per reader: unread count, new badge, opening reads it', async () => {
    const before = (await dealer2.get('/user/announcements/unread-count')).body.unread_count;
    const otherBefore = (await dealer.get('/user/announcements/unread-count')).body.unread_count;
    const fresh = await create('Read me', { target_roles: ['dealer'], priority: 'urgent', expires_at: at(3 * HOUR) });
    expect((await dealer2.get('/user/announcements/unread-count')).body.unread_count).toBe(before + 1);
    const list = await dealer2.get('/user/announcements?per_page=100');
    expect(list.body.unread_count).toBe(before + 1);
    const item = list.body.data.find((a: { id: number }) => a.id === fresh.id);
    expect(item).toMatchObject({ is_read: false, is_new: true, expiring_soon: true, priority: 'urgent' });
    expect(item).not.toHaveProperty('target_users');

    const opened = await dealer2.get(`/user/announcements/${fresh.id}`);
    expect(opened.body.data).toMatchObject({ id: fresh.id, is_read: true, is_new: false });
    // Opening twice counts once.
    await dealer2.get(`/user/announcements/${fresh.id}`);
    expect((await dealer2.get('/user/announcements/unread-count')).body.unread_count).toBe(before);
    const again = (await dealer2.get('/user/announcements?per_page=100')).body.data.find((a: { id: number }) => a.id === fresh.id);
    expect(again).toMatchObject({ is_read: true, is_new: false });
    // Another dealer still has it unread.
    expect((await dealer.get('/user/announcements/unread-count')).body.unread_count).toBe(otherBefore + 1);
  });

  it('answers the banner with the most recent, newest first, and marks what expires within 24 hours', async () => {
    await create('Banner old', { target_roles: ['reseller'], expires_at: at(72 * HOUR) });
    await create('Banner new', { target_roles: ['reseller'], expires_at: at(23 * HOUR) });
    const recent = await reseller.get('/user/announcements/recent');
    expect(recent.status).toBe(200);
    expect(recent.body.announcements).toHaveLength(3);
    expect(recent.body.announcements[0]).toMatchObject({ title: 'Banner new', expiring_soon: true });
    expect(recent.body.announcements[1]).toMatchObject({ title: 'Banner old', expiring_soon: false });
    expect((await reseller.get('/user/announcements/recent?limit=1')).body.announcements.map((a: { title: string }) => a.title)).toEqual(['Banner new']);
    const visible = await admin.get('/announcements/visible?limit=2');
    expect(visible.body.data.map((a: { title: string }) => a.title)).toEqual(['Banner new', 'Banner old']);
  });

  it('filters, sorts and pages the admin list (15 a page) and counts the stats by dates and switch', async () => {
    const stats = async () => (await admin.get('/announcements/stats')).body.data;
    const before = await stats();
    await create('Stats active');
    await create('Stats scheduled', { starts_at: at(5 * HOUR) });
    await create('Stats expired', { expires_at: at(-HOUR), starts_at: at(-5 * HOUR) });
    await create('Stats off', { is_active: false });
    const after = await stats();
    expect(after).toEqual({
      total: before.total + 4,
      active: before.active + 1,
      scheduled: before.scheduled + 1,
      expired: before.expired + 1,
      inactive: before.inactive + 1,
    });

    const page = await admin.get('/announcements');
    expect(page.body.meta).toMatchObject({ per_page: 15, current_page: 1 });
    expect(page.body.meta.last_page).toBe(Math.ceil(page.body.meta.total / 15));
    const titles = async (q: string) => (await admin.get(`/announcements?per_page=100&${q}`)).body.data.map((a: { title: string }) => a.title);
    expect(await titles('search=stats&status=scheduled')).toEqual(['Stats scheduled']);
    expect(await titles('search=stats&status=expired')).toEqual(['Stats expired']);
    expect(await titles('search=stats&is_active=0')).toEqual(['Stats off']);
    expect(await titles('search=stats&sort_by=title&sort_order=asc')).toEqual(['Stats active', 'Stats expired', 'Stats off', 'Stats scheduled']);
    await create('Typed', { type: 'error', priority: 'low', target_roles: ['manager'] });
    expect(await titles('type=error&priority=low')).toEqual(['Typed']);
    expect(await titles('search=typed&target_role=manager')).toEqual(['Typed']);
    expect(await titles('search=typed&target_role=dealer')).toEqual([]);
    expect((await admin.get('/announcements?status=sometime')).status).toBe(422);
  });

  it('lists target users of one role, with a search', async () => {
    const dealers = await admin.get('/announcements/target-users?role=dealer');
    expect(dealers.status).toBe(200);
    expect(dealers.body.users.map((u: { username: string }) => u.username)).toEqual(expect.arrayContaining(['dealer', 'dealer2']));
    expect(dealers.body.users.every((u: { role: string }) => u.role === 'dealer')).toBe(true);
    const searched = await admin.get('/announcements/target-users?role=dealer&search=dora');
    expect(searched.body.users.map((u: { username: string }) => u.username)).toEqual(['dealer2']);
    expect((await admin.get('/announcements/target-users')).status).toBe(422);
    expect((await admin.get('/announcements/target-users?role=admin')).status).toBe(422);
  });

  it('stores and serves only sanitised HTML for every known XSS payload', async () => {
    const reader = dealer;
    for (const payload of XSS_PAYLOADS) {
      const res = await admin.post('/announcements', { title: `XSS ${payload.slice(0, 40)}`, content: `<p>Notice</p>${payload}` });
      expect(res.status, payload).toBe(201);
      const id = res.body.data.id;
      const stored = await ctx.db.kysely.selectFrom('announcements').select('content').where('id', '=', id).executeTakeFirstOrThrow();
      expect(htmlProblems(stored.content), `stored: ${payload}`).toEqual([]);
      expect(htmlProblems(res.body.data.content), `answered: ${payload}`).toEqual([]);
      expect(htmlProblems((await admin.get(`/announcements/${id}`)).body.data.content), `admin view: ${payload}`).toEqual([]);
      const served = await reader.get(`/user/announcements/${id}`);
      expect(served.status).toBe(200);
      expect(htmlProblems(served.body.data.content), `reader view: ${payload}`).toEqual([]);
      expect(served.body.data.content).toContain('<p>Notice</p>');
      await admin.delete(`/announcements/${id}`);
    }
  });

  it('serves sanitised HTML even when the stored text was written around the API', async () => {
    const created = await create('Raw row', { target_roles: ['dealer'] });
    const raw = '<p onclick="alert(1)">Hello</p><script>alert(document.cookie)</script><a href="javascript:alert(1)" style="position:fixed">x</a>';
    await ctx.db.kysely.updateTable('announcements').set({ content: raw }).where('id', '=', created.id).execute();
    for (const res of [await admin.get(`/announcements/${created.id}`), await dealer.get(`/user/announcements/${created.id}`)]) {
      expect(res.body.data.content).toBe('<p>Hello</p><a target="_blank" rel="noopener noreferrer nofollow">x</a>');
    }
    const listed = (await dealer.get('/user/announcements?per_page=100')).body.data.find((a: { id: number }) => a.id === created.id);
    expect(htmlProblems(listed.content)).toEqual([]);
    const recent = (await admin.get('/announcements?search=Raw%20row')).body.data[0];
    expect(htmlProblems(recent.content)).toEqual([]);
  });

  it('writes an audit entry for create, update, status and delete', async () => {
    const created = await create('Audited announcement');
    await admin.put(`/announcements/${created.id}`, { title: 'Audited announcement 2', content: '<p>x</p>' });
    await admin.patch(`/announcements/${created.id}/toggle-status`);
    await admin.delete(`/announcements/${created.id}`);
    const actions = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'username'])
      .where('module', '=', 'announcements')
      .where('entity_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(actions).toEqual(['create', 'update', 'status', 'delete'].map((action) => ({ action, username: 'admin' })));
  });
});
