/** `npm start`: migrate, seed (demo mode), build the panel if needed, serve panel and API on one port. */
import { buildApp } from './app';
import { loadConfig } from './config';
import { connect } from './db/connect';
import { prepareDatabase } from './startup';
import { jobsOf } from './jobs';
import { startJobs } from './jobs/scheduler';
import { ensurePanelBuilt } from './panelBuild';

const config = loadConfig();
const db = connect(config.databaseUrl, { sqliteReaders: config.sqliteReaders });
// Several processes may start at once: migrations, the first admin and the demo seed run under a lock.
const prepared = await prepareDatabase(db, config);
if (prepared.demoSeeded) console.log('Demo data seeded: sign in as admin, manager, reseller or dealer with any password.');
if (process.env.SKIP_PANEL_BUILD !== 'true') await ensurePanelBuilt((m) => console.log(m));

const app = await buildApp({ db, config });
const stopJobs = config.schedulers ? startJobs(db.kysely, jobsOf(config), (job, error) => app.log.error({ err: error, job: job.name }, 'job failed')) : () => {};

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
