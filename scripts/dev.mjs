// `npm run dev`: the API on port 3001 (restarts on server changes) and Vite with hot reload on 5173,
// which proxies /api to it. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import { writeRegistries } from './registry.mjs';

// tsx and Vite read the registries as files: bring them up to date with their folders first.
writeRegistries();

const apiPort = process.env.API_PORT ?? '3001';
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, HOST: '127.0.0.1', SKIP_PANEL_BUILD: 'true' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], {
    stdio: 'inherit',
    env: { ...process.env, API_URL: `http://127.0.0.1:${apiPort}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
