/**
 * The HTTP client's error mapping (docs/api.md#errors): every non-OK answer becomes a Refine HttpError
 * whose message comes from the body's message, else the whole body, else 'API Error'; a 422 carries
 * its per-field errors in the shape antd forms consume; a 503 tells the app that maintenance is on.
 */
import type { HttpError } from '@refinedev/core';
import { AxiosError } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAINTENANCE_EVENT, toHttpError } from '../../src/providers/http';
import { type FakeHttp, fakeHttp } from './fakeHttp';

let fake: FakeHttp;

beforeEach(() => {
  localStorage.clear();
  fake = fakeHttp();
});

/** The rejection of a GET to `path` answered with `reply`. */
async function failure(reply: Parameters<FakeHttp['on']>[2], path = 'managers'): Promise<HttpError> {
  fake.on('GET', path, reply);
  try {
    await fake.http.get(path);
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('the request did not fail');
}

describe('toHttpError through the client', () => {
  it('takes the message from the body and the status code', async () => {
    const error = await failure({ status: 403, body: { message: "You don't have permission to perform this action." } });
    expect(error).toEqual({ message: "You don't have permission to perform this action.", statusCode: 403 });
  });

  it('uses the whole body when it has no message', async () => {
    const error = await failure({ status: 400, body: { error: 'bad_request', detail: 'x' } });
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe('{"error":"bad_request","detail":"x"}');
  });

  it('uses the whole body when its message is empty or not a string', async () => {
    expect((await failure({ status: 409, body: { message: '' } })).message).toBe('{"message":""}');
    expect((await failure({ status: 409, body: { message: { text: 'nested' } } })).message).toBe('{"message":{"text":"nested"}}');
  });

  it('uses a plain-text body as the message', async () => {
    const error = await failure({ status: 502, raw: 'Bad Gateway' });
    expect(error).toEqual({ message: 'Bad Gateway', statusCode: 502 });
  });

  it("falls back to 'API Error' for an empty body", async () => {
    expect(await failure({ status: 500 })).toEqual({ message: 'API Error', statusCode: 500 });
    expect(await failure({ status: 404, raw: '' })).toEqual({ message: 'API Error', statusCode: 404 });
  });

  it('passes a 422 errors object through as HttpError.errors ({field: [messages]}, as antd forms read it)', async () => {
    const body = {
      message: 'The given data was invalid.',
      errors: { username: ['The username has already been taken.'], credits: ['The credits must be at least 0.', 'Second.'] },
    };
    const error = await failure({ status: 422, body });
    expect(error).toEqual({ message: 'The given data was invalid.', statusCode: 422, errors: body.errors });
  });

  it('keeps the per-field errors of other statuses too (e.g. credit errors on 422 by field)', async () => {
    const error = await failure({ status: 422, body: { message: 'Too many credit operations.', errors: { rate_limit: ['Too many.'] } } });
    expect(error.errors).toEqual({ rate_limit: ['Too many.'] });
  });

  it('has no errors key when the body has none', async () => {
    const error = await failure({ status: 422, body: { message: 'Invalid.' } });
    expect(error).not.toHaveProperty('errors');
  });

  it('maps a 401 to statusCode 401 with the server message', async () => {
    expect(await failure({ status: 401, body: { message: 'Unauthenticated.' } })).toEqual({ message: 'Unauthenticated.', statusCode: 401 });
  });

  it('maps a network failure (no answer) to statusCode 0 with the transport message', async () => {
    const error = await failure({ networkError: 'Network Error' });
    expect(error).toEqual({ message: 'Network Error', statusCode: 0 });
  });

  it('is a plain HttpError object, not an AxiosError', async () => {
    const error = await failure({ status: 500, body: { message: 'Server Error' } });
    expect(error).not.toBeInstanceOf(AxiosError);
    expect(Object.keys(error).sort()).toEqual(['message', 'statusCode']);
  });
});

describe('toHttpError on its own', () => {
  it("answers 'API Error' and status 0 for something that is not an axios error at all", () => {
    expect(toHttpError({})).toEqual({ message: 'API Error', statusCode: 0 });
  });
});

describe('maintenance', () => {
  const listener = vi.fn();
  beforeEach(() => {
    listener.mockReset();
    window.addEventListener(MAINTENANCE_EVENT, listener);
  });
  afterEach(() => window.removeEventListener(MAINTENANCE_EVENT, listener));

  it('dispatches the maintenance event on a 503 and still rejects with the message', async () => {
    const error = await failure({ status: 503, body: { message: 'The system is under maintenance. Please try again later.' } });
    expect(error).toEqual({ message: 'The system is under maintenance. Please try again later.', statusCode: 503 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0][0].type).toBe('panel:maintenance');
  });

  it('does not dispatch it for other failures', async () => {
    await failure({ status: 500, body: { message: 'Server Error' } });
    await failure({ status: 401, body: { message: 'Unauthenticated.' } });
    await failure({ networkError: 'Network Error' });
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('requests', () => {
  it('go under /api/v1 with JSON accept and the bearer token when signed in', async () => {
    fake.on('GET', 'user', { status: 200, body: { id: 1 } });
    await fake.http.get('user');
    expect(fake.last().url).toBe('/api/v1/user');
    expect(fake.last().headers.Authorization).toBeUndefined();
    expect(fake.last().headers.Accept).toMatch(/application\/json/);

    localStorage.setItem('token', 't0k3n');
    await fake.http.get('user');
    expect(fake.last().headers.Authorization).toBe('Bearer t0k3n');
  });

  it('read a 204 as null data', async () => {
    fake.on('DELETE', 'servers/1', { status: 204 });
    const response = await fake.http.delete('servers/1');
    expect(response.status).toBe(204);
    expect(response.data).toBeNull();
  });
});
