/**
 * Two API processes on one database: both start at once on an empty database (migrations, the first
 * admin and the demo seed run once, under the start-up lock), then concurrent credit moves go through
 * both, some with the same Idempotency-Key sent to both at the same moment. Afterwards the demo data
 * exists once, each key moved credits once (both processes answer with the same entries) and
 * check:ledger finds nothing.
 *
 *   npx tsx scripts/reliability/two-process.ts --db sqlite|postgres [--moves 300] [--seed N]
 *
 * Prints one line with its figures (PASS or FAIL); exits 1 on failure.
 */
import { type Db, connect } from '../../server/db/connect';
import { checkLedger } from '../../server/ledger/check';
import { type Answer, type Move, type ServerProcess, call, freshDatabase, moveMaker, numbersOf, parseArgs, prng, report, signIn, startServer } from './lib';

const args = parseArgs();
const moves = Number(args.moves ?? 300);
const seed = Number(args.seed ?? Date.now() % 2 ** 31);
const { url, cleanup } = await freshDatabase(args.db);
const problems: string[] = [];
const figures = { db: args.db, seed, processes: 2, started: 0, moves: 0, acknowledged: 0, twins: 0, twinsAgreeing: 0, entriesWritten: 0, entriesFound: 0 };
let servers: ServerProcess[] = [];

let db: Db | null = null;
try {
  const started = await Promise.allSettled([startServer(url), startServer(url)]);
  servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  figures.started = servers.length;
  for (const s of started) if (s.status === 'rejected') problems.push(`a process did not start: ${String(s.reason).slice(0, 1500)}`);
  if (servers.length !== 2) throw new Error('both processes must start');

  const open = connect(url, { poolSize: 2 });
  db = open;
  const servers_ = await open.kysely.selectFrom('servers').select('name').execute();
  if (servers_.length !== 2) problems.push(`the demo seed ran more than once: ${servers_.length} servers`);
  const users = await open.kysely.selectFrom('users').select(['username', 'role']).execute();
  if (users.filter((u) => u.role === 'admin').length !== 1) problems.push(`expected one admin: ${JSON.stringify(users.filter((u) => u.role === 'admin'))}`);
  if (new Set(users.map((u) => u.username)).size !== users.length) problems.push('a username exists twice');

  const idOf = async (username: string) => (await open.kysely.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  const ids = { manager: await idOf('manager'), reseller: await idOf('reseller'), dealer: await idOf('dealer') };
  const firstEntry = Number(
    (
      await open.kysely
        .selectFrom('credit_transactions')
        .select((eb) => eb.fn.max('id').as('m'))
        .executeTakeFirstOrThrow()
    ).m ?? 0,
  );
  // Tokens live in the database: a token from one process works on the other.
  const tokens: Record<Move['actor'], string> = {
    admin: await signIn(servers[0].baseUrl, 'admin'),
    manager: await signIn(servers[1].baseUrl, 'manager'),
    reseller: await signIn(servers[0].baseUrl, 'reseller'),
  };
  const random = prng(seed);
  const nextMove = moveMaker(ids, random, `two-${seed}`);
  const send = (server: ServerProcess, move: Move) => call(server.baseUrl, 'POST', move.url, tokens[move.actor], move.body, { 'idempotency-key': move.key });
  const answers = new Map<string, Answer>();
  let counter = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (counter < moves) {
        const move = nextMove(counter++);
        figures.moves++;
        if (random() < 0.2) {
          // The same key through both processes at once: one moves, the other replays its answer.
          figures.twins++;
          const [a, b] = await Promise.all([send(servers[0], move), send(servers[1], move)]);
          if (a.status === b.status && JSON.stringify(numbersOf(a)) === JSON.stringify(numbersOf(b))) figures.twinsAgreeing++;
          else
            problems.push(
              `${move.key}: the processes answered differently: ${a.status} ${JSON.stringify(a.body).slice(0, 150)} / ${b.status} ${JSON.stringify(b.body).slice(0, 150)}`,
            );
          answers.set(move.key, a);
        } else {
          answers.set(move.key, await send(servers[counter % 2], move));
        }
      }
    }),
  );
  for (const [key, answer] of answers) {
    if (answer.status !== 200 && answer.status !== 422) problems.push(`${key}: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  }
  const acknowledged = [...answers.values()].filter((a) => a.status === 200);
  figures.acknowledged = acknowledged.length;
  const expected = acknowledged.flatMap(numbersOf);
  figures.entriesWritten = expected.length;
  const written = await open.kysely.selectFrom('credit_transactions').select('transaction_number').where('id', '>', firstEntry).execute();
  figures.entriesFound = written.length;
  const found = new Set(written.map((r) => r.transaction_number));
  const missing = expected.filter((n) => !found.has(n));
  if (missing.length) problems.push(`${missing.length} acknowledged entr(ies) missing`);
  if (written.length !== new Set(expected).size) problems.push(`${written.length} entries written for ${new Set(expected).size} acknowledged`);
  problems.push(...(await checkLedger(open.kysely)).problems);
} catch (error) {
  problems.push(`aborted: ${(error as Error).stack ?? error}`);
  for (const s of servers) problems.push(`server output:\n${s.output().slice(-1500)}`);
} finally {
  await db?.close();
  await Promise.all(servers.map((s) => s.stop()));
  await cleanup();
}
report('two-process test', problems.length === 0, figures, problems);
