/**
 * PostgreSQL: the statements every request or credit move runs are sent as named prepared
 * statements, so each connection parses and plans them once instead of on every call (planning the
 * move's target with its counts took 1.6 ms). Only statements registered here are
 * named: each has a fixed shape whose plan does not depend on its values (lookups by key), and the
 * set stays small, since a connection keeps every statement it prepared.
 */
import type pg from 'pg';

const names = new Map<string, string>();

/** Registers a statement's text: from now on it runs named on every connection. */
export function nameStatement(text: string): void {
  if (!names.has(text)) names.set(text, `panel_${names.size}`);
}

/** The driver's client, sending registered statements under their names. */
export function namingClient(Client: typeof pg.Client): typeof pg.Client {
  return class NamingClient extends Client {
    // Kysely's driver calls query(text, values) and awaits the promise it returns.
    query(config: unknown, values?: unknown, callback?: unknown): any {
      const name = typeof config === 'string' && callback === undefined && (values === undefined || Array.isArray(values)) ? names.get(config) : undefined;
      if (name) return super.query({ name, text: config as string, values: values as unknown[] | undefined });
      return (super.query as (...args: unknown[]) => unknown)(config, values, callback);
    }
  } as typeof pg.Client;
}
