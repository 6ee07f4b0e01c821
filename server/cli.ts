/**
 * Operator commands (`npm run cli -- COMMAND ...`):
 *   create-admin USERNAME PASSWORD [NAME]                     the first admin of a production install
 *   import-subscribers --server ID --dealer ID [--apply]      adopt a middleware's subscribers (dry run without --apply)
 *   setup-runtime-role ROLE [PASSWORD]                        PostgreSQL: the API's role, owning no table (server/db/roles.ts)
 *   reconcile --server ID [--apply [--remove-orphans]]         make a middleware match the panel (dry run without --apply)
 *   reset-2fa USERNAME                                        turn a user's second factor off (the only way for an admin)
 */
import { parseArgs } from 'node:util';
import type { FastifyRequest } from 'fastify';
import { plural } from '../src/contract';
import { recordAudit } from './audit';
import { revokeAllTokens } from './auth/tokens';
import { removeSecondFactor } from './auth/twoFactor';
import { loadConfig } from './config';
import { connect } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { RoleRefused, setupRuntimeRole } from './db/roles';
import { migrateAsOwner, withStartupLock } from './startup';
import { DomainError } from './errors';
import { Provisioners } from './provisioning';
import { ImportRefused, applyImport, planImport } from './provisioning/import';
import { ReconcileRefused, applyReconcile, describeDifference, planReconcile } from './provisioning/reconcile';
import { ensureAdmin } from './seed/admin';

const USAGE = `Usage:
  npm run cli -- create-admin USERNAME PASSWORD [NAME]
  npm run cli -- import-subscribers --server ID --dealer ID [--apply]
  npm run cli -- setup-runtime-role ROLE [PASSWORD]
  npm run cli -- reconcile --server ID [--apply [--remove-orphans]]
  npm run cli -- reset-2fa USERNAME`;

function usage(): never {
  console.error(USAGE);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
const config = loadConfig();
const db = connect(config.databaseUrl, { sqliteReaders: config.sqliteReaders });

async function createAdmin(args: string[]): Promise<void> {
  const [username, password, ...name] = args;
  if (!username || !password) usage();
  const admin = await withStartupLock(db, async () => {
    await migrateAsOwner(db, config.migrationDatabaseUrl, config.databaseUrl);
    return ensureAdmin(db.kysely, username, password, name.join(' ') || undefined);
  });
  console.log(admin ? `Admin ${admin.username} created.` : 'An admin already exists; nothing changed.');
}

async function importSubscribers(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { server: { type: 'string' }, dealer: { type: 'string' }, apply: { type: 'boolean', default: false } } });
  const serverId = Number(values.server);
  const dealerId = Number(values.dealer);
  if (!Number.isInteger(serverId) || serverId < 1 || !Number.isInteger(dealerId) || dealerId < 1) usage();
  await withStartupLock(db, () => migrateAsOwner(db, config.migrationDatabaseUrl, config.databaseUrl));
  const provisioners = Provisioners.attach(db.kysely, config, {
    warn: (details, message) => console.warn(message, (details as { err?: unknown }).err ?? ''),
    error: (details, message) => console.error(message, (details as { err?: unknown }).err ?? ''),
  });
  try {
    const plan = await planImport(db.kysely, provisioners, serverId, dealerId);
    console.log(`Server ${plan.server.name} (id ${plan.server.id}) -> dealer ${plan.dealer.username} (id ${plan.dealer.id})`);
    for (const { subscriber, login, mac } of plan.adopt) {
      console.log(`  adopt  #${subscriber.id}  ${login}  ${mac}  ${subscriber.enabled ? 'active' : 'suspended'}  expires ${subscriber.expiry_date ?? '-'}`);
    }
    for (const { subscriber, reason } of plan.skipped) console.log(`  skip   #${subscriber.id}  ${subscriber.login || '-'}: ${reason}`);
    if (!values.apply) {
      console.log(`${plural(plan.adopt.length, 'subscriber')} would be imported, ${plan.skipped.length} skipped. Run again with --apply to import them.`);
      return;
    }
    const imported = await applyImport(db.kysely, plan);
    console.log(`${plural(imported, 'subscriber')} imported, ${plan.skipped.length} skipped.`);
  } catch (error) {
    if (!(error instanceof ImportRefused || error instanceof DomainError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await provisioners.close();
  }
}

/**
 * Run by the tables' owner (MIGRATION_DATABASE_URL, else DATABASE_URL): migrates, then creates or
 * updates the runtime role and its grants. Running it again is harmless (a new password, if given).
 */
async function setupRole(args: string[]): Promise<void> {
  const [role, password, ...extra] = args;
  if (!role || extra.length > 0) usage();
  // Two connections: the start-up lock holds one while the migrations and grants run on the other.
  const owner = connect(config.migrationDatabaseUrl, { poolSize: 2 });
  try {
    if (owner.dialect !== 'postgres') {
      console.error('setup-runtime-role is for PostgreSQL: SQLite has no roles (its file permissions decide who may write).');
      process.exitCode = 1;
      return;
    }
    await withStartupLock(owner, async () => {
      await migrateToLatest(owner.kysely);
      await setupRuntimeRole(owner.kysely, role, password);
    });
    console.log(`Role ${role} can now run the API: DATABASE_URL=postgres://${role}:PASSWORD@HOST:PORT/DB, with MIGRATION_DATABASE_URL naming the owner.`);
  } catch (error) {
    if (!(error instanceof RoleRefused)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await owner.close();
  }
}

async function reconcile(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { server: { type: 'string' }, apply: { type: 'boolean', default: false }, 'remove-orphans': { type: 'boolean', default: false } },
  });
  const serverId = Number(values.server);
  if (!Number.isInteger(serverId) || serverId < 1 || (values['remove-orphans'] && !values.apply)) usage();
  await withStartupLock(db, () => migrateToLatest(db.kysely));
  const provisioners = Provisioners.attach(db.kysely, config, {
    warn: (details, message) => console.warn(message, (details as { err?: unknown }).err ?? ''),
    error: (details, message) => console.error(message, (details as { err?: unknown }).err ?? ''),
  });
  try {
    const plan = await planReconcile(db.kysely, provisioners, serverId);
    console.log(`Server ${plan.server.name} (id ${plan.server.id}): ${plural(plan.accounts, 'live account')}, ${plural(plan.subscribers, 'subscriber')}`);
    for (const difference of plan.differences) console.log(`  ${describeDifference(difference)}`);
    const orphans = plan.differences.filter((d) => d.kind === 'orphan').length;
    const repairable = plan.differences.filter((d) => d.kind === 'missing' || d.kind === 'differs').length;
    if (!values.apply) {
      console.log(
        `${plural(plan.differences.length, 'difference')}. Run again with --apply to repair ${repairable}` +
          (orphans ? `, and --remove-orphans to remove the ${plural(orphans, 'subscriber')} without an account (import-subscribers adopts them instead).` : '.'),
      );
      return;
    }
    const repaired = await applyReconcile(db.kysely, provisioners, plan, { removeOrphans: values['remove-orphans'] ?? false });
    console.log(`${plural(repaired, 'difference')} repaired.`);
  } catch (error) {
    if (!(error instanceof ReconcileRefused || error instanceof DomainError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    await provisioners.close();
  }
}

/** The operator's way back in: the user's second factor goes, and its sessions end. Audited. */
async function resetTwoFactor(args: string[]): Promise<void> {
  const [username, ...extra] = args;
  if (!username || extra.length > 0) usage();
  await withStartupLock(db, () => migrateAsOwner(db, config.migrationDatabaseUrl, config.databaseUrl));
  const user = await db.kysely.selectFrom('users').selectAll().where('username', '=', username).where('status', '!=', 'deleted').executeTakeFirst();
  if (!user) {
    console.error(`No user ${username}.`);
    process.exitCode = 1;
    return;
  }
  if (!user.two_factor_at) {
    console.log(`${username} has no second factor; nothing changed.`);
    return;
  }
  await removeSecondFactor(db.kysely, user.id);
  await revokeAllTokens(db.kysely, user.id);
  const cli = { user: null, ip: null, headers: { 'user-agent': 'cli' } } as unknown as FastifyRequest;
  await recordAudit(db.kysely, cli, { module: 'auth', action: 'reset_two_factor', entityId: user.id, targetUsername: user.username, description: 'command line' });
  console.log(`Two-factor sign-in of ${username} reset: it signs in with its password and may set a second factor up again.`);
}

try {
  if (command === 'create-admin') await createAdmin(rest);
  else if (command === 'reconcile') await reconcile(rest);
  else if (command === 'import-subscribers') await importSubscribers(rest);
  else if (command === 'setup-runtime-role') await setupRole(rest);
  else if (command === 'reset-2fa') await resetTwoFactor(rest);
  else usage();
} finally {
  await db.close();
}
