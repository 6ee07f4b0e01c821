/**
 * `npm test`: the browser layer beside the provider and API layers, as two vitest runs at once. The
 * browser files run one after another (each starts the product and Chromium) and wait on them most
 * of the time; run after the other layers, as one vitest run orders them, they would add their whole
 * length to the suite's. Arguments go to both runs (a file filter picks its own layer; the other
 * finds nothing and passes). Fails when either run fails.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const args = process.argv.slice(2);
const layers = [
  { tag: 'e2e', projects: ['e2e'] },
  { tag: 'api+providers', projects: ['server', 'providers'] },
];

const run = ({ tag, projects }) =>
  new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--passWithNoTests', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Piped, the runs would not see a terminal: colours as this process's own output allows.
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }) },
    });
    // Each line names its run, so the two interleave readably.
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      readline.createInterface({ input: stream }).on('line', (line) => out.write(`[${tag}] ${line}\n`));
    }
    child.on('close', (code) => resolve({ tag, code: code ?? 1 }));
  });

const results = await Promise.all(layers.map(run));
for (const { tag, code } of results) console.log(`${tag}: ${code === 0 ? 'passed' : `failed (exit ${code})`}`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
