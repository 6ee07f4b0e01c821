/**
 * `npm run seed:scale -- [--accounts N] [--managers N] [--resellers N] [--dealers N]`: builds a large
 * database in the one DATABASE_URL names (SQLite by default), then verifies its ledger and kept figures.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { connect } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { tallyProblems } from '../server/db/tallies';
import { checkLedger } from '../server/ledger/check';
import { SCALE_DEFAULTS, seedScale } from '../server/seed/scale';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string' },
    managers: { type: 'string' },
    resellers: { type: 'string' },
    dealers: { type: 'string' },
  },
});
const count = (name: keyof typeof SCALE_DEFAULTS & keyof typeof values) => {
  const raw = values[name];
  const n = raw === undefined ? SCALE_DEFAULTS[name] : Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer`);
    process.exit(2);
  }
  return n as number;
};
const options = { accounts: count('accounts'), managers: count('managers'), resellers: count('resellers'), dealers: count('dealers') };
const config = loadConfig();
const db = connect(config.databaseUrl);
const stamp = () => new Date().toISOString().slice(11, 19);
try {
  await migrateToLatest(db.kysely);
  console.log(`${stamp()} seeding ${config.databaseUrl}: ${JSON.stringify(options)}`);
  const report = await seedScale(db.kysely, { ...options, log: (line) => console.log(`${stamp()} ${line}`) });
  console.log(
    `${stamp()} built ${report.users} users, ${report.accounts} accounts, ${report.entries} ledger entries in ${report.seconds.toFixed(0)} s; checking the ledger`,
  );
  const { figures, problems } = await checkLedger(db.kysely);
  console.log(`${stamp()} ledger: ${JSON.stringify(figures)}`);
  // The kept figures (migration 0013) follow the batched inserts by trigger; recount them.
  const tallies = await tallyProblems(db.kysely);
  console.log(`${stamp()} kept figures: ${tallies.length === 0 ? 'match a recount' : `${tallies.length} differ`}`);
  if (problems.length || tallies.length) {
    console.error([...problems, ...tallies.slice(0, 20)].join('\n'));
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
