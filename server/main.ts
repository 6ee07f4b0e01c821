/** `npm start`: migrate, seed (demo mode), build the panel if needed, serve panel and API on one port. */
import { buildApp } from './app';
import { loadConfig } from './config';
import { connect } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { jobs } from './jobs';
import { startJobs } from './jobs/scheduler';
import { ensurePanelBuilt } from './panelBuild';
import { ensureAdmin } from './seed/admin';
import { seedDemo } from './seed/demo';

const config = loadConfig();
const db = connect(config.databaseUrl);
await migrateToLatest(db.kysely);
if (config.adminUsername && config.adminPassword) {
  await ensureAdmin(db.kysely, config.adminUsername, config.adminPassword);
}
if (config.demoMode && (await seedDemo(db.kysely))) {
  console.log('Demo data seeded: sign in as admin, manager, reseller or dealer with any password.');
}
if (process.env.SKIP_PANEL_BUILD !== 'true') await ensurePanelBuilt((m) => console.log(m));

const app = await buildApp({ db, config });
const stopJobs = config.schedulers
  ? startJobs(db.kysely, jobs, (job, error) => app.log.error({ err: error, job: job.name }, 'job failed'))
  : () => {};

const shutdown = async () => {
  stopJobs();
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
app.log.info(`Panel and API on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (${db.dialect}${config.demoMode ? ', demo mode' : ''})`);
