/** `npm run cli -- create-admin USERNAME PASSWORD [NAME]`: the first admin of a production install. */
import { loadConfig } from './config';
import { connect } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { withStartupLock } from './db/startup';
import { ensureAdmin } from './seed/admin';

const [command, username, password, ...name] = process.argv.slice(2);
if (command !== 'create-admin' || !username || !password) {
  console.error('Usage: npm run cli -- create-admin USERNAME PASSWORD [NAME]');
  process.exit(2);
}
const config = loadConfig();
const db = connect(config.databaseUrl);
const admin = await withStartupLock(db, async () => {
  await migrateToLatest(db.kysely);
  return ensureAdmin(db.kysely, username, password, name.join(' ') || undefined);
});
console.log(admin ? `Admin ${admin.username} created.` : 'An admin already exists; nothing changed.');
await db.close();
