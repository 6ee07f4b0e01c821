/**
 * The demo hierarchy seeded on the first start in demo mode: two branches (so scoping can be seen),
 * servers, accounts, credit moves through the ledger, ticket categories, tickets and announcements.
 */
import type { Kysely } from 'kysely';
import { THEME_PRESETS } from '../../src/contract';
import { hashPassword } from '../auth/passwords';
import { inTransaction } from '../db/transaction';
import type { Database, UserRow } from '../db/schema';
import { nowIso } from '../db/values';
import { postChanges } from '../ledger/post';
import { insertUser } from '../users';

/** Password of the non-demo seeded users (the demo users accept any password in demo mode). */
export const DEMO_PASSWORD = 'password123';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

export async function seedDemo(db: Kysely<Database>): Promise<boolean> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any) return false;
  const password_hash = await hashPassword(DEMO_PASSWORD);
  const now = nowIso();

  // One after the other: the main server is server 1 (concurrent inserts on a PostgreSQL pool took
  // their ids in either order).
  const server = (name: string, db_host: string) =>
    db
      .insertInto('servers')
      .values({
        name,
        db_host,
        db_name: 'stalker_db',
        db_username: 'stalker',
        db_password_enc: null,
        db_port: '3306',
        status: 'active',
        connection_status: 'online',
        last_checked_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const main = await server('Main Server', '127.0.0.1');
  const backup = await server('Backup Server', '127.0.0.2');

  const user = (parent: UserRow | null, role: string, username: string, name: string, server_id: number | null = null) =>
    insertUser(db, parent, { role, username, name, password_hash, server_id, phone: null });
  const admin = await user(null, 'admin', 'admin', 'Administrator');
  const manager = await user(admin, 'manager', 'manager', 'Maria Manager', main.id);
  const manager2 = await user(admin, 'manager', 'manager2', 'Omar Manager', backup.id);
  const reseller = await user(manager, 'reseller', 'reseller', 'Rita Reseller');
  const reseller2 = await user(manager2, 'reseller', 'reseller2', 'Rashid Reseller');
  const dealer = await user(reseller, 'dealer', 'dealer', 'Dan Dealer');
  const dealer2 = await user(reseller2, 'dealer', 'dealer2', 'Dora Dealer');

  // Credits flow down through the ledger, as they would through the panel.
  const give = (from: UserRow, to: UserRow, credits: number) =>
    inTransaction(db, (trx) =>
      postChanges(
        trx,
        [
          ...(from.role === 'admin'
            ? []
            : [{ userId: from.id, type: 'USED' as const, credits: -credits, counterpartyId: to.id, remarks: `Credits added to ${to.username}` }]),
          { userId: to.id, type: 'PURCHASED', credits, counterpartyId: from.id, remarks: `Credits from ${from.username}` },
        ],
        { actorId: from.id, kind: 'seed' },
      ),
    );
  await give(admin, manager, 5000);
  await give(admin, manager2, 2000);
  await give(manager, reseller, 1000);
  await give(manager2, reseller2, 500);
  await give(reseller, dealer, 200);
  await give(reseller2, dealer2, 100);

  const accounts: Array<[UserRow, number, string, string, string, number | null]> = [
    [dealer, main.id, 'john.doe', 'John Doe', '001A79000001', 200],
    [dealer, main.id, 'jane.smith', 'Jane Smith', '001A79000002', 5],
    [dealer, main.id, 'bob.jones', 'Bob Jones', '001A79000003', -3],
    [dealer, main.id, 'alice.w', 'Alice Walker', '001A79000004', 40],
    [reseller, main.id, 'carl.r', 'Carl Reed', '001A79000005', 370],
    [dealer2, backup.id, 'eve.m', 'Eve Martin', '001A79000006', 90],
  ];
  for (const [owner, server_id, login, full_name, mac, days] of accounts) {
    const { id } = await db
      .insertInto('accounts')
      .values({
        owner_id: owner.id,
        owner_path: owner.path,
        server_id,
        login,
        full_name,
        pwd_txt: 'stb1234',
        mac_address: mac,
        expiry_date: days === null ? null : at(days),
        validity_months: 1,
        status: 'active',
        is_promo: 0,
        bonus_months: 0,
        is_trial: 0,
        auto_renew_months: null,
        auto_renew_end_date: null,
        auto_renew_failed_at: null,
        auto_renew_error: null,
        state: days !== null && days > 0 && login !== 'alice.w' ? 'online' : 'offline',
        last_active: at(-1),
        ip_address: '127.0.0.1',
        connection_status: 'online',
        device_info: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Each account was bought for a month by its owner.
    await inTransaction(db, (trx) =>
      postChanges(
        trx,
        [
          {
            userId: owner.id,
            type: 'USED',
            credits: -1,
            accountId: id,
            coverageStart: at((days ?? 30) - 30),
            coverageEnd: at(days ?? 0),
            remarks: `Renewal of ${login} for 1 month`,
          },
        ],
        { actorId: owner.id, kind: 'seed' },
      ),
    );
  }

  // In order, as the servers: their ids follow the list.
  const categories: Array<{ id: number }> = [];
  for (const name of ['General', 'Billing', 'Technical Support']) {
    categories.push(
      await db
        .insertInto('ticket_categories')
        .values({ name, description: `${name} questions`, is_active: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
  }
  const tickets: Array<[UserRow, number, string, string, string]> = [
    [dealer, categories[1].id, 'Credits not received', 'I ordered 100 credits yesterday and cannot see them.', 'high'],
    [reseller, categories[2].id, 'Box keeps restarting', 'Account carl.r reports restarts every evening.', 'medium'],
  ];
  for (const [owner, category_id, subject, message, priority] of tickets) {
    await db
      .insertInto('tickets')
      .values({ user_id: owner.id, owner_path: owner.path, category_id, subject, message, priority, status: 'open', created_at: now, updated_at: now, closed_at: null })
      .execute();
  }

  const announcements: Array<[string, string, string, string, string[], string | null]> = [
    ['Welcome to the new panel', '<p>The panel has moved to a new home. <strong>Bookmarks</strong> keep working.</p>', 'info', 'medium', [], at(30)],
    ['Scheduled maintenance', '<p>Servers restart on Sunday at 03:00 for about 10 minutes.</p>', 'warning', 'urgent', ['manager', 'reseller', 'dealer'], at(0.5)],
    ['Bonus month for resellers', '<p>Buy 100 credits and get 20 bonus credits this month.</p>', 'success', 'high', ['reseller'], at(20)],
  ];
  for (const [title, content, type, priority, roles, expires_at] of announcements) {
    await db
      .insertInto('announcements')
      .values({
        title,
        content,
        type,
        priority,
        target_roles: JSON.stringify(roles),
        target_users: '[]',
        is_active: 1,
        starts_at: at(-1),
        expires_at,
        created_by: admin.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  // Themes: the first active for everyone; the others are a click away in the Themes screen.
  for (const [i, { name, slug, description, tokens }] of THEME_PRESETS.entries()) {
    await db
      .insertInto('themes')
      .values({ name, slug, description, is_active: i === 0 ? 1 : 0, tokens: JSON.stringify(tokens), created_at: now, updated_at: now })
      .execute();
  }
  return true;
}
