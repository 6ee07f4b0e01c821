/**
 * A fake HTTP layer for the provider tests: the real client of src/providers/http.ts (base URL,
 * bearer token, 204 handling, error mapping) with its network adapter replaced by one that records
 * every request and answers from canned replies. Nothing leaves the process.
 */
import { AxiosError, type AxiosAdapter, type AxiosInstance, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { API_PREFIX } from '../../src/contract';
import { createHttp } from '../../src/providers/http';

export interface RecordedRequest {
  method: string;
  /** Path under the API prefix, without the query: 'ticket-categories/3'. */
  path: string;
  /** The full URL as the browser would request it: '/api/v1/ticket-categories?page=1&per_page=10'. */
  url: string;
  /** The query string as the server receives it. */
  query: Record<string, string>;
  /** The JSON body, parsed (undefined when none was sent). */
  body: unknown;
  headers: Record<string, string>;
}

export type Reply = { status: number; body?: unknown; raw?: string } | { networkError: string } | ((request: RecordedRequest) => Reply);

interface Route {
  method: string;
  path: string | RegExp;
  reply: Reply;
}

export interface FakeHttp {
  http: AxiosInstance;
  requests: RecordedRequest[];
  /** Answer requests of this method to this path (exact path under /api/v1, or a pattern); later routes win. */
  on(method: string, path: string | RegExp, reply: Reply): FakeHttp;
  /** The answer for any request no route matches (default: an empty {data, meta} list). */
  otherwise(reply: Reply): FakeHttp;
  last(): RecordedRequest;
  /** The requests made with this method to this exact path, oldest first. */
  calls(method: string, path: string): RecordedRequest[];
}

const resolveReply = (reply: Reply, request: RecordedRequest): Exclude<Reply, (r: RecordedRequest) => Reply> =>
  typeof reply === 'function' ? resolveReply(reply(request), request) : reply;

/** Wraps an existing client (e.g. the app's singleton) or a fresh one from createHttp(). */
export function fakeHttp(http: AxiosInstance = createHttp()): FakeHttp {
  const requests: RecordedRequest[] = [];
  const routes: Route[] = [];
  let fallback: Reply = { status: 200, body: { data: [], meta: { total: 0, current_page: 1, per_page: 10, last_page: 1 } } };

  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const url = http.getUri(config);
    const parsed = new URL(url, 'http://panel.test');
    const prefix = `${API_PREFIX}/`;
    const path = parsed.pathname.startsWith(prefix) ? parsed.pathname.slice(prefix.length) : parsed.pathname;
    let body: unknown;
    if (typeof config.data === 'string' && config.data !== '') body = JSON.parse(config.data);
    else if (config.data !== undefined && config.data !== null) body = config.data;
    const request: RecordedRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      path,
      url: `${parsed.pathname}${parsed.search}`,
      query: Object.fromEntries(parsed.searchParams.entries()),
      body,
      headers: Object.fromEntries(Object.entries(config.headers.toJSON()).map(([k, v]) => [k, String(v)])),
    };
    requests.push(request);

    const route = [...routes].reverse().find((r) => r.method === request.method && (typeof r.path === 'string' ? r.path === path : r.path.test(path)));
    const reply = resolveReply(route ? route.reply : fallback, request);

    if ('networkError' in reply) throw new AxiosError(reply.networkError, AxiosError.ERR_NETWORK, config, {});
    const response: AxiosResponse = {
      // As on the wire: a JSON text (or a raw text), parsed by axios' own response transform.
      data: reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)),
      status: reply.status,
      statusText: String(reply.status),
      headers: { 'content-type': reply.raw !== undefined ? 'text/plain' : 'application/json' },
      config,
      request: {},
    };
    const validate = config.validateStatus ?? ((s: number) => s >= 200 && s < 300);
    if (!validate(reply.status)) {
      throw new AxiosError(
        `Request failed with status code ${reply.status}`,
        reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
        config,
        {},
        response,
      );
    }
    return response;
  };
  http.defaults.adapter = adapter;

  const fake: FakeHttp = {
    http,
    requests,
    on(method, path, reply) {
      routes.push({ method: method.toUpperCase(), path, reply });
      return fake;
    },
    otherwise(reply) {
      fallback = reply;
      return fake;
    },
    last() {
      const request = requests.at(-1);
      if (!request) throw new Error('no request was made');
      return request;
    },
    calls(method, path) {
      return requests.filter((r) => r.method === method.toUpperCase() && r.path === path);
    },
  };
  return fake;
}
