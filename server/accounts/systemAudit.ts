/** Audit entries written by the scheduler, which has no HTTP request: no user, no address. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type AuditEntry, recordAudit } from '../audit';
import type { Database } from '../db/schema';

const SCHEDULER = { user: null, ip: null, headers: { 'user-agent': 'scheduler' } } as unknown as FastifyRequest;

export const recordSystemAudit = (db: Kysely<Database>, entry: AuditEntry) => recordAudit(db, SCHEDULER, entry);
