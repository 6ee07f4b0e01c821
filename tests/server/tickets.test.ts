/**
 * Tickets over real HTTP: opening and validation, visibility to the owner and the chain above it only
 * (sibling subtrees get 404 on every ticket endpoint), the thread, close and reopen, unread state for
 * the other side, filters and the nested list shape (docs/api.md#lists), statistics, deletion by admin.
 */
import { beforeAll, expect, it } from 'vitest';
import { ACCESS, TICKETS } from '../../src/contract';
import { type Client, describeEachDatabase } from './harness';

describeEachDatabase('tickets', (ctx) => {
  let admin: Client, manager: Client, reseller: Client, dealer: Client, manager2: Client, reseller2: Client, dealer2: Client;
  let billing: number, general: number;

  beforeAll(async () => {
    [admin, manager, reseller, dealer, manager2, reseller2, dealer2] = await Promise.all(
      ['admin', 'manager', 'reseller', 'dealer', 'manager2', 'reseller2', 'dealer2'].map((u) => ctx.as(u)),
    );
    const categories = (await dealer.get('/tickets-categories')).body.data as Array<{ id: number; name: string }>;
    billing = categories.find((c) => c.name === 'Billing')!.id;
    general = categories.find((c) => c.name === 'General')!.id;
  });

  const open = async (by: Client, subject: string, extra: Record<string, unknown> = {}) => {
    const res = await by.post('/tickets', { subject, message: `About ${subject}`, category_id: billing, priority: 'high', ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { id: number; subject: string; is_unread: boolean; user: { username: string } };
  };
  const listed = async (by: Client, query = '') => {
    const res = await by.get(`/tickets${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as {
      data: Array<{ id: number; is_unread: boolean; status: string; priority: string; category_id: number }>;
      total: number;
      current_page: number;
      per_page: number;
    };
  };
  const unreadFor = async (by: Client, id: number) => (await listed(by, '?per_page=100')).data.find((t) => t.id === id)?.is_unread;

  it('opens a ticket with subject, message, category and priority; the form rules answer 422 per field', async () => {
    const empty = await dealer.post('/tickets', {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toMatchObject({
      subject: [TICKETS.subjectRequired],
      message: [TICKETS.messageRequired],
      category_id: [TICKETS.categoryRequired],
    });
    const badPriority = await dealer.post('/tickets', { subject: 'S', message: 'M', category_id: billing, priority: 'whenever' });
    expect(badPriority.body.errors).toEqual({ priority: [TICKETS.priorityInvalid] });
    const missingCategory = await dealer.post('/tickets', { subject: 'S', message: 'M', category_id: 999999 });
    expect(missingCategory.status).toBe(422);
    expect(missingCategory.body.errors).toEqual({ category_id: [TICKETS.categoryInvalid] });
    // An inactive category cannot be picked.
    const inactive = await admin.post('/ticket-categories', { name: `Closed ${ctx.kind}`, is_active: false });
    const refused = await dealer.post('/tickets', { subject: 'S', message: 'M', category_id: inactive.body.data.id });
    expect(refused.body.errors).toEqual({ category_id: [TICKETS.categoryInvalid] });

    const ticket = await open(dealer, 'Login trouble', { priority: undefined });
    expect(ticket).toMatchObject({
      subject: 'Login trouble',
      status: 'open',
      priority: 'medium',
      category: { id: billing, name: 'Billing' },
      user: { username: 'dealer', role: 'dealer' },
      replies_count: 0,
      is_unread: false,
    });
  });

  it('shows a ticket to its owner and everyone above it up to admin; other branches get 404 everywhere', async () => {
    const ticket = await open(dealer, 'Scoped ticket');
    for (const viewer of [dealer, reseller, manager, admin]) {
      const res = await viewer.get(`/tickets/${ticket.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(ticket.id);
      expect((await listed(viewer, '?per_page=100')).data.map((t) => t.id)).toContain(ticket.id);
    }
    for (const outsider of [dealer2, reseller2, manager2]) {
      expect((await listed(outsider, '?per_page=100')).data.map((t) => t.id)).not.toContain(ticket.id);
      const calls = [
        outsider.get(`/tickets/${ticket.id}`),
        outsider.post(`/tickets/${ticket.id}/replies`, { message: 'Let me in' }),
        outsider.put(`/tickets/${ticket.id}`, { status: 'closed' }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(404);
        expect(res.body.message).toBe(ACCESS.notFoundEntity);
      }
    }
    // Below the owner is not above it: a reseller's ticket is not the dealer's business.
    const resellers = await open(reseller, 'Reseller only');
    expect((await dealer.get(`/tickets/${resellers.id}`)).status).toBe(404);
    expect((await manager.get(`/tickets/${resellers.id}`)).status).toBe(200);
    expect((await manager2.get(`/tickets/${resellers.id}`)).status).toBe(404);
  });

  it('threads replies; a reply makes the ticket unread for the other side only, until it is opened', async () => {
    const ticket = await open(dealer, 'Unread flow');
    // A new ticket is news for the staff above, not for its writer.
    expect(await unreadFor(dealer, ticket.id)).toBe(false);
    expect(await unreadFor(admin, ticket.id)).toBe(true);
    expect(await unreadFor(reseller, ticket.id)).toBe(true);

    // Opening it reads it for that user only.
    await admin.get(`/tickets/${ticket.id}`);
    expect(await unreadFor(admin, ticket.id)).toBe(false);
    expect(await unreadFor(reseller, ticket.id)).toBe(true);

    const answer = await admin.post(`/tickets/${ticket.id}/replies`, { message: 'We are on it.' });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ message: 'We are on it.', user: { username: 'admin' }, is_staff: true });
    // The owner's side has news; the staff side wrote it.
    expect(await unreadFor(dealer, ticket.id)).toBe(true);
    expect(await unreadFor(admin, ticket.id)).toBe(false);
    expect(await unreadFor(reseller, ticket.id)).toBe(false);
    expect((await listed(dealer, '?unread=true&per_page=100')).data.map((t) => t.id)).toContain(ticket.id);

    const thread = await dealer.get(`/tickets/${ticket.id}`);
    expect(thread.body.data.replies.map((r: { message: string; is_staff: boolean }) => [r.message, r.is_staff])).toEqual([['We are on it.', true]]);
    expect(thread.body.data.replies_count).toBe(1);
    expect(await unreadFor(dealer, ticket.id)).toBe(false);
    expect((await listed(dealer, '?unread=true&per_page=100')).data.map((t) => t.id)).not.toContain(ticket.id);

    // The owner answers: news for the staff side again.
    await dealer.post(`/tickets/${ticket.id}/replies`, { message: 'Thanks, still broken.' });
    expect(await unreadFor(admin, ticket.id)).toBe(true);
    expect(await unreadFor(dealer, ticket.id)).toBe(false);
    // A reseller in the chain answers too.
    const fromReseller = await reseller.post(`/tickets/${ticket.id}/replies`, { message: 'Restart the box.' });
    expect(fromReseller.status).toBe(201);
    expect((await dealer.get(`/tickets/${ticket.id}`)).body.data.replies.map((r: { user: { username: string } }) => r.user.username)).toEqual([
      'admin',
      'dealer',
      'reseller',
    ]);

    const empty = await dealer.post(`/tickets/${ticket.id}/replies`, { message: '   ' });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ message: [TICKETS.messageRequired] });
  });

  it('closes and reopens; a closed ticket takes no reply; only the owner changes subject, message and category', async () => {
    const ticket = await open(dealer, 'Close me');
    const closed = await reseller.put(`/tickets/${ticket.id}`, { status: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ message: TICKETS.closed, data: { status: 'closed' } });
    expect(closed.body.data.closed_at).not.toBeNull();
    const refused = await dealer.post(`/tickets/${ticket.id}/replies`, { message: 'Hello?' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ message: [TICKETS.closedNoReply] });

    const reopened = await dealer.put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(reopened.body).toMatchObject({ message: TICKETS.reopened, data: { status: 'open', closed_at: null } });
    expect((await dealer.post(`/tickets/${ticket.id}/replies`, { message: 'Hello?' })).status).toBe(201);

    expect((await admin.put(`/tickets/${ticket.id}`, { priority: 'urgent' })).body.data.priority).toBe('urgent');
    const notOwner = await admin.put(`/tickets/${ticket.id}`, { subject: 'Rewritten' });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.message).toBe(TICKETS.ownerOnly);
    const mine = await dealer.put(`/tickets/${ticket.id}`, { subject: 'Close me, please', category_id: general });
    expect(mine.body.data).toMatchObject({ subject: 'Close me, please', category: { name: 'General' } });
    const nothing = await dealer.put(`/tickets/${ticket.id}`, {});
    expect(nothing.status).toBe(422);
    const badStatus = await dealer.put(`/tickets/${ticket.id}`, { status: 'pending' });
    expect(badStatus.body.errors).toEqual({ status: [TICKETS.statusInvalid] });
  });

  it('lists in the nested shape with paging, search and filters by status, priority and category', async () => {
    const a = await open(dealer2, 'Filter alpha', { priority: 'low', category_id: general });
    const b = await open(dealer2, 'Filter beta', { priority: 'urgent' });
    await dealer2.put(`/tickets/${b.id}`, { status: 'closed' });
    const page = await dealer2.get('/tickets?per_page=1&page=2');
    expect(page.body).toEqual({ data: expect.objectContaining({ total: 2, current_page: 2, per_page: 1, last_page: 2, from: 2, to: 2 }) });
    expect(page.body.data.data).toHaveLength(1);
    const ids = async (q: string) => (await listed(dealer2, q)).data.map((t) => t.id);
    expect(await ids('?status=closed')).toEqual([b.id]);
    expect(await ids('?filter[status]=open')).toEqual([a.id]);
    expect(await ids('?priority=low')).toEqual([a.id]);
    expect(await ids(`?category_id=${billing}`)).toEqual([b.id]);
    expect(await ids('?search=beta')).toEqual([b.id]);
    expect(await ids('?sort=subject&order=asc')).toEqual([a.id, b.id]);
    const bad = await dealer2.get('/tickets?status=pending');
    expect(bad.status).toBe(422);
  });

  it('counts the caller’s tickets in /tickets-statistics', async () => {
    const before = (await manager2.get('/tickets-statistics')).body.data;
    const ticket = await open(reseller2, 'Stats ticket', { priority: 'urgent' });
    const after = (await manager2.get('/tickets-statistics')).body.data;
    expect(after.total).toBe(before.total + 1);
    expect(after.open).toBe(before.open + 1);
    expect(after.unread).toBe(before.unread + 1);
    expect(after.by_priority.urgent).toBe(before.by_priority.urgent + 1);
    const billingCount = (s: typeof after) => s.by_category.find((c: { id: number }) => c.id === billing)?.count ?? 0;
    expect(billingCount(after)).toBe(billingCount(before) + 1);
    await reseller2.put(`/tickets/${ticket.id}`, { status: 'closed' });
    const closed = (await manager2.get('/tickets-statistics')).body.data;
    expect(closed.closed).toBe(after.closed + 1);
    // Another branch sees none of it.
    const other = (await manager.get('/tickets-statistics')).body.data;
    const everything = (await admin.get('/tickets-statistics')).body.data;
    expect(everything.total).toBeGreaterThanOrEqual(other.total + closed.total);
    expect(other.total).toBe((await listed(manager, '?per_page=100')).total);
  });

  it('lets admin delete a ticket with its thread; nobody else may', async () => {
    const ticket = await open(dealer, 'Delete me');
    await admin.post(`/tickets/${ticket.id}/replies`, { message: 'Bye' });
    expect((await dealer.delete(`/tickets/${ticket.id}`)).status).toBe(403);
    expect((await manager.delete(`/tickets/${ticket.id}`)).status).toBe(403);
    expect((await admin.delete(`/tickets/${ticket.id}`)).status).toBe(204);
    expect((await dealer.get(`/tickets/${ticket.id}`)).status).toBe(404);
    const replies = await ctx.db.kysely.selectFrom('ticket_replies').select('id').where('ticket_id', '=', ticket.id).execute();
    expect(replies).toEqual([]);
  });

  it('records who opened, answered, closed and deleted tickets in the audit log', async () => {
    const ticket = await open(dealer, 'Audited');
    await admin.post(`/tickets/${ticket.id}/replies`, { message: 'Seen' });
    await dealer.put(`/tickets/${ticket.id}`, { status: 'closed' });
    await admin.delete(`/tickets/${ticket.id}`);
    const entries = await ctx.db.kysely
      .selectFrom('audit_logs')
      .select(['action', 'username', 'target_username'])
      .where('module', '=', 'tickets')
      .where('entity_id', '=', ticket.id)
      .orderBy('id')
      .execute();
    expect(entries).toEqual([
      { action: 'create', username: 'dealer', target_username: 'dealer' },
      { action: 'reply', username: 'admin', target_username: 'dealer' },
      { action: 'close', username: 'dealer', target_username: 'dealer' },
      { action: 'delete', username: 'admin', target_username: 'dealer' },
    ]);
  });
});
