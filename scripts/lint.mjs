/**
 * `npm run lint`: ESLint and Prettier's check side by side (each uses its own cache under
 * node_modules/.cache, so a second run reads only the files that changed); fails when either does.
 */
import { spawn } from 'node:child_process';

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('close', (code) => resolve(code ?? 1));
  });

const codes = await Promise.all([
  run('npx', ['eslint', '.', '--max-warnings', '0', '--cache', '--cache-location', 'node_modules/.cache/eslint/']),
  run('npx', ['prettier', '--check', '.', '--cache', '--log-level', 'warn']),
]);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
