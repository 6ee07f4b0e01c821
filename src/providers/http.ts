/**
 * The HTTP client every provider uses: API base, bearer token, JSON, and one error shape.
 * Any non-OK answer becomes a Refine HttpError: message from the body's message (or the whole body,
 * or 'API Error'), the status, and a 422's per-field `errors` so forms show them under the fields.
 */
import type { HttpError } from '@refinedev/core';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import { API_PREFIX, GENERAL } from '../contract';
import { session } from './session';

export function toHttpError(error: unknown): HttpError {
  const axiosError = error as AxiosError<unknown>;
  const status = axiosError.response?.status ?? 0;
  const body = axiosError.response?.data;
  let message: string = GENERAL.apiError;
  let errors: HttpError['errors'];
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; errors?: unknown };
    if (typeof b.message === 'string' && b.message) message = b.message;
    else message = JSON.stringify(body);
    if (b.errors && typeof b.errors === 'object') errors = b.errors as HttpError['errors'];
  } else if (typeof body === 'string' && body) {
    message = body;
  } else if (!axiosError.response && axiosError.message) {
    message = axiosError.message;
  }
  return { message, statusCode: status, ...(errors ? { errors } : {}) };
}

export const MAINTENANCE_EVENT = 'panel:maintenance';

export function createHttp(baseURL: string = API_PREFIX): AxiosInstance {
  // The API authenticates by bearer token: no XSRF cookie to send, and reading one (axios asks the
  // browser's cookie store, asynchronously) would hold every request back before it is sent.
  const http = axios.create({ baseURL, headers: { Accept: 'application/json' }, withXSRFToken: false });
  // Synchronous, so that a call is sent when it is made: the first screen's calls then go out before
  // the page's chunks take the browser's few connections to the server.
  http.interceptors.request.use(
    (config) => {
      const token = session.token();
      if (token) config.headers.set('Authorization', `Bearer ${token}`);
      return config;
    },
    undefined,
    { synchronous: true },
  );
  // 204 and empty bodies read as empty; errors as HttpError.
  http.interceptors.response.use(
    (response) => {
      if (response.status === 204 || response.data === '') response.data = null;
      return response;
    },
    (error) => {
      const httpError = toHttpError(error);
      // Maintenance switched on while signed in: let the app config reload and show the notice.
      if (httpError.statusCode === 503 && typeof window !== 'undefined') window.dispatchEvent(new Event(MAINTENANCE_EVENT));
      return Promise.reject(httpError);
    },
  );
  return http;
}

export const http = createHttp();
