/**
 * `npm run check:ledger [DATABASE_URL]`: verifies the ledger of a live database (server/ledger/check.ts)
 * and prints its figures. Read-only, safe while the panel runs. Exits 0 when every rule holds, 1 with
 * the broken rules listed, 2 when the database cannot be read. The URL defaults to DATABASE_URL (or
 * the embedded SQLite file).
 */
import fs from 'node:fs';
import { loadConfig } from '../server/config';
import { connect } from '../server/db/connect';
import { type BonusReport, checkLedger } from '../server/ledger/check';

/** Bonus minted per promotion: granted = taken back + backed by credits still bought + excess (minted from nothing). */
function printBonuses(b: BonusReport) {
  console.log('\nBonus per promotion (granted = taken back + backed + excess)');
  if (b.promos.length === 0) console.log('  none granted');
  const head = ['promotion', 'allocations', 'granted', 'taken back', 'backed', 'excess'];
  const cells = b.promos.map((p) => [`${p.name}${p.promoId !== null ? ` #${p.promoId}` : ''}`, p.allocations, p.granted, p.takenBack, p.backed, p.excess]);
  if (cells.length > 0) {
    const width = Math.max(head[0].length, ...cells.map((c) => String(c[0]).length));
    const line = (c: Array<string | number>) =>
      `  ${String(c[0]).padEnd(width)} ${c
        .slice(1)
        .map((v) => (typeof v === 'number' ? v.toLocaleString('en-US') : v).padStart(12))
        .join('')}`;
    console.log(line(head));
    for (const c of cells) console.log(`${line(c)}${Number(c[5]) > 0 ? '  MINTED' : ''}`);
  }
  if (b.unlinked.entries > 0) console.log(`  bonus with no allocation that earned it: ${b.unlinked.credits} credits in ${b.unlinked.entries} entries`);
  if (b.writtenOff > 0) console.log(`  bonus written off with no allocation named (deleted users, earlier rule): ${b.writtenOff}`);
}

const url = process.argv[2] || loadConfig().databaseUrl;
const file = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null;
if (file && !fs.existsSync(file)) {
  console.error(`Cannot check the ledger: no database at ${file}`);
  process.exit(2);
}
const db = connect(url, { poolSize: 1 });
try {
  const { figures: f, bonuses, problems } = await checkLedger(db.kysely);
  const rows: Array<[string, number]> = [
    ['users', f.users],
    ['ledger entries', f.entries],
    ['credits held (bonus included)', f.held],
    ['  of which bonus', f.bonusHeld],
    ['minted (admin allocations, bonus grants)', f.minted],
    ['burned (admin recoveries, bonus write-offs)', f.burned],
    ['spent on accounts (net of refunds)', f.spent],
    ['moves between users', f.transfers],
    ['  credits moved', f.transferred],
  ];
  console.log(`Ledger of ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(46)} ${value.toLocaleString('en-US').padStart(14)}`);
  console.log(`  minted - burned = ${f.minted - f.burned}; held + spent = ${f.held + f.spent}`);
  printBonuses(bonuses);
  if (problems.length > 0) {
    console.log(`\nFAILED: ${problems.length} problem(s)`);
    for (const p of problems) console.log(`  - ${p}`);
    process.exitCode = 1;
  } else {
    console.log(
      '\nOK: every balance equals its entries, entries chain per user, nothing is negative, moves net to zero, minted - burned = held + spent, every bonus kept is backed by credits still bought.',
    );
  }
} catch (error) {
  console.error(`Cannot check the ledger: ${(error as Error).message}`);
  process.exitCode = 2;
} finally {
  await db.close();
}
