import { DEFAULT_DATABASE_URL } from './db/connect';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  production: boolean;
  /** Demo mode seeds the demo hierarchy and lets the demo users sign in with any password. */
  demoMode: boolean;
  tokenTtlHours: number;
  /** Key for secrets kept encrypted at rest (server database passwords). */
  appKey: string | undefined;
  adminUsername: string | undefined;
  adminPassword: string | undefined;
  /** Run the background jobs (auto-renew, server checks) in this process. */
  schedulers: boolean;
  logLevel: string;
  /** Credit operations (add, recover) one user may make per minute. */
  creditOpsPerMinute: number;
}

const flag = (value: string | undefined): boolean | undefined =>
  value === undefined || value === '' ? undefined : ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === 'production';
  // DESIGN.md: demo mode when no DATABASE_URL is set outside production; DEMO_MODE overrides, never in production.
  const demoMode = !production && (flag(env.DEMO_MODE) ?? !env.DATABASE_URL);
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    production,
    demoMode,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 24 * 7),
    appKey: env.APP_KEY || undefined,
    adminUsername: env.ADMIN_USERNAME || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    schedulers: flag(env.SCHEDULERS) ?? true,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    creditOpsPerMinute: Number(env.CREDIT_OPS_PER_MINUTE ?? 30),
  };
}
