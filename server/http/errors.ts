import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { GENERAL } from '../../src/contract';
import { DomainError, type DomainErrorKind, fieldSummary } from '../errors';

/** The status each kind of domain error is answered with. */
const STATUS: Record<DomainErrorKind, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  too_many_requests: 429,
  unavailable: 503,
};

// Routes take the domain errors from here or from server/errors.ts: one set of errors for both layers.
export { DomainError, badRequest, conflict, fieldError, forbidden, notFound, tooManyRequests, unauthenticated, unavailable, validationError } from '../errors';

/**
 * Constraint failures that a race between two requests can still cause after the handlers' own
 * checks (two creates of one unique name, a parent deleted while a child is created): a clear 4xx.
 */
function databaseConflict(code: string | undefined, message: string): { status: number; message: string } | null {
  // The ledger guards (migration 0006) refuse to replace a row holding credits with SQLite's own words.
  if (code === 'SQLITE_CONSTRAINT_TRIGGER' && message.startsWith('UNIQUE constraint failed')) {
    return { status: 409, message: GENERAL.alreadyExists };
  }
  switch (code) {
    case '23505':
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return { status: 409, message: GENERAL.alreadyExists };
    case '23503':
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return { status: 409, message: GENERAL.relatedRecordGone };
    case '22003':
      return { status: 422, message: GENERAL.numberOutOfRange };
    // Text PostgreSQL cannot store (a NUL byte, a character outside the encoding): the request text
    // check refuses these first; this is the database's own line behind it.
    case '22021':
    case '22P05':
      return { status: 400, message: GENERAL.unstorableText };
    default:
      return null;
  }
}

/**
 * Field errors as they can be sent: a field named __proto__ would become the prototype of the
 * object the response serialiser builds (and vanish), so it is reported under `where` instead.
 */
function sendable(errors: Record<string, string[]>, where: string): Record<string, string[]> {
  if (!Object.hasOwn(errors, '__proto__')) return errors;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const key = field === '__proto__' ? where : field;
    out[key] = [...(out[key] ?? []), ...messages];
  }
  return out;
}

export function errorHandler(error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) {
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return reply.code(STATUS[error.kind]).send({ message: error.message, ...(error.errors ? { errors: sendable(error.errors, 'body') } : {}) });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // No prototype: a field named 'constructor' or '__proto__' is a key like any other.
    const errors: Record<string, string[]> = Object.create(null);
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'body');
      (errors[field] ??= []).push(issue.message ?? GENERAL.validationFailed);
    }
    return reply.code(422).send({ message: fieldSummary(errors), errors: sendable(errors, error.validationContext ?? 'body') });
  }
  const code = (error as FastifyError).code;
  const database = databaseConflict(code, error.message ?? '');
  if (database) return reply.code(database.status).send({ message: database.message });
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return reply.code(400).send({ message: GENERAL.malformedJson });
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    return reply.code(status).send({ message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: GENERAL.serverError });
}
