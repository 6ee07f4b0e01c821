/**
 * Crash test: concurrent credit moves through the API while the server is killed with SIGKILL
 * mid-load, restarted on the same database, and the moves whose answer never came retried with their
 * Idempotency-Key. Afterwards every acknowledged move is in the ledger exactly once, no move is there
 * that was not acknowledged, and check:ledger finds nothing.
 *
 *   npx tsx scripts/reliability/crash.ts --db sqlite|postgres [--kills 3] [--clients 6] [--load-ms 1500] [--seed N]
 *
 * Prints one line with its figures (PASS or FAIL); exits 1 on failure.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Db, connect } from '../../server/db/connect';
import { checkLedger } from '../../server/ledger/check';
import { type Answer, type Move, call, freshDatabase, moveMaker, numbersOf, parseArgs, prng, report, signIn, startServer } from './lib';

const args = parseArgs();
const kills = Number(args.kills ?? 3);
const clients = Number(args.clients ?? 6);
const loadMs = Number(args['load-ms'] ?? 1500);
const seed = Number(args.seed ?? Date.now() % 2 ** 31);

const { url, cleanup } = await freshDatabase(args.db);
let server = await startServer(url);
const problems: string[] = [];
const figures = {
  db: args.db,
  seed,
  kills: 0,
  restarts: 0,
  sent: 0,
  acknowledged: 0,
  refused: 0,
  unanswered: 0,
  retried: 0,
  /** retries that got the first answer again: the move had committed before the kill */ replayed: 0,
  entriesWritten: 0,
  entriesFound: 0,
};

let db: Db | null = null;
try {
  const open = connect(url, { poolSize: 2 });
  db = open;
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
  const tokens: Record<Move['actor'], string> = {
    admin: await signIn(server.baseUrl, 'admin'),
    manager: await signIn(server.baseUrl, 'manager'),
    reseller: await signIn(server.baseUrl, 'reseller'),
  };
  const nextMove = moveMaker(ids, prng(seed), `crash-${seed}`);
  /** The final answer of each key that got one. */
  const answers = new Map<string, Answer>();
  /** Moves sent whose answer was lost with the server: retried after the restart. */
  let unanswered: Move[] = [];
  let counter = 0;

  const send = async (move: Move): Promise<Answer> => call(server.baseUrl, 'POST', move.url, tokens[move.actor], move.body, { 'idempotency-key': move.key });

  /** Clients send moves until the server dies under them (or `until` passes). */
  const load = async (until: number) => {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < until) {
          const move = nextMove(counter++);
          figures.sent++;
          try {
            answers.set(move.key, await send(move));
          } catch {
            unanswered.push(move);
            return; // the server is gone: this client stops until the restart
          }
        }
      }),
    );
  };

  for (let round = 0; round <= kills; round++) {
    const until = Date.now() + loadMs * 3;
    const running = load(until);
    if (round < kills) {
      await sleep(loadMs * (0.5 + prng(seed + round)()));
      await server.kill();
      figures.kills++;
    }
    await running;
    if (round < kills) {
      server = await startServer(url);
      figures.restarts++;
      // A killed move either committed (the retry replays its first answer) or left nothing (it runs now).
      const retry = unanswered;
      unanswered = [];
      for (const move of retry) {
        figures.retried++;
        for (let attempt = 1; ; attempt++) {
          try {
            const answer = await send(move);
            answers.set(move.key, answer);
            if (answer.replayed) figures.replayed++;
            break;
          } catch (error) {
            if (attempt >= 5) throw error;
            await sleep(200);
          }
        }
      }
    }
  }
  await server.stop();

  figures.unanswered = unanswered.length;
  if (unanswered.length) problems.push(`${unanswered.length} move(s) never answered`);
  const acknowledged = [...answers.values()].filter((a) => a.status === 200);
  figures.acknowledged = acknowledged.length;
  figures.refused = answers.size - acknowledged.length;
  for (const [key, answer] of answers) {
    if (answer.status !== 200 && answer.status !== 422) problems.push(`${key}: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  }
  const expected = acknowledged.flatMap(numbersOf);
  figures.entriesWritten = expected.length;
  const written = await open.kysely.selectFrom('credit_transactions').select(['transaction_number']).where('id', '>', firstEntry).execute();
  figures.entriesFound = written.length;
  const found = new Map<string, number>();
  for (const row of written) found.set(row.transaction_number, (found.get(row.transaction_number) ?? 0) + 1);
  const missing = expected.filter((n) => !found.has(n));
  const extra = written.filter((row) => !expected.includes(row.transaction_number));
  if (missing.length) problems.push(`${missing.length} acknowledged entr(ies) missing: ${missing.slice(0, 5).join(', ')}`);
  if (extra.length)
    problems.push(
      `${extra.length} entr(ies) no answer acknowledged (a move applied twice or lost its answer): ${extra
        .slice(0, 5)
        .map((r) => r.transaction_number)
        .join(', ')}`,
    );
  const ledger = await checkLedger(open.kysely);
  problems.push(...ledger.problems);
} catch (error) {
  problems.push(`aborted: ${(error as Error).stack ?? error}`);
  problems.push(`server output:\n${server.output().slice(-2000)}`);
  await server.kill();
} finally {
  await db?.close();
  await cleanup();
}
report('crash test', problems.length === 0, figures, problems);
