/**
 * `npm test`: vitest runs in three lanes at once: the browser layer; the axe sweep of every route and
 * dialog (tests/e2e/axe.test.ts) and then the provider layer; the API layer. On two cores vitest
 * gives each run one worker, and the browser runs wait on the product and Chromium much of the time:
 * three lanes keep both cores busy, and the sweep, the shortest, hands its lane to the providers so
 * that the lanes end together. Arguments go to every run (a file filter picks its own layer; the
 * others find nothing and pass); the sweep runs only without arguments or when one names it. Fails
 * when any run fails. Ends with what scripts/testReport.mjs picks out: the tests that passed only on
 * a retry, and each failed run's failures.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { failureReport, retriedTests } from './testReport.mjs';

const args = process.argv.slice(2);
const AXE_FILE = 'tests/e2e/axe.test.ts';
const sweep = args.length === 0 || args.some((a) => a.includes('axe'));
/** Each lane's runs, one after another. */
const lanes = [
  [{ tag: 'e2e', projects: ['e2e'] }],
  [...(sweep ? [{ tag: 'axe', projects: ['e2e'], files: [AXE_FILE], env: { AXE_SWEEP: '1' } }] : []), { tag: 'providers', projects: ['providers'] }],
  [{ tag: 'api', projects: ['server', 'server-isolated'] }],
];
const layers = lanes.flat();

const run = ({ tag, projects, files = [], env = {} }) =>
  new Promise((resolve) => {
    const lines = [];
    const child = spawn('npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--passWithNoTests', ...files, ...(files.length > 0 ? [] : args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Piped, the runs would not see a terminal: colours as this process's own output allows.
      env: { ...process.env, ...env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) },
    });
    // Each line names its run, so the runs interleave readably.
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        out.write(`[${tag}] ${line}\n`);
        lines.push(line);
      });
    }
    child.on('close', (code) => resolve({ tag, code: code ?? 1, lines }));
  });

// The two browser runs start the product, which builds the panel when its build is stale: built once
// here first, rather than by both at once into the same folder.
const browser = fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
if (browser && layers.filter((l) => l.projects.includes('e2e')).length > 1) {
  const built = await new Promise((resolve) =>
    spawn('npx', ['tsx', '-e', "import('./server/panelBuild.ts').then((m) => m.ensurePanelBuilt(console.log))"], { stdio: 'inherit' }).on('close', (code) =>
      resolve(code === 0),
    ),
  );
  if (!built) process.exit(1);
}

const inLane = async (lane) => {
  const done = [];
  for (const layer of lane) done.push(await run(layer));
  return done;
};
const results = (await Promise.all(lanes.map(inLane))).flat();
for (const { tag, lines } of results) {
  const retried = retriedTests(lines);
  if (retried.length > 0) console.log(`\n==> ${tag}: ${retried.length} passed only on a retry\n${retried.map((l) => `[${tag}] ${l.trim()}`).join('\n')}`);
}
for (const { tag, lines } of results.filter((r) => r.code !== 0)) {
  console.log(`\n==> ${tag}: what failed`);
  for (const line of failureReport(lines)) console.log(`[${tag}] ${line}`);
}
for (const { tag, code } of results) console.log(`${tag}: ${code === 0 ? 'passed' : `failed (exit ${code})`}`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
