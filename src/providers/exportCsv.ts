/**
 * Downloads a CSV export (a list's or a statement's) the API streams for `Accept: text/csv`. It goes
 * through fetch with the bearer token, reading the body as it arrives to report bytes and rows, and
 * stops when the signal aborts. The file is handed to the browser once complete.
 */
import type { HttpError } from '@refinedev/core';
import { API_PREFIX, CSV_MEDIA_TYPE, GENERAL } from '../contract';
import { session } from './session';

export interface ExportProgress {
  bytes: number;
  /** Records received, the header not counted. */
  rows: number;
}

export interface ExportRequest {
  /** Under the API prefix, without a leading slash. */
  path: string;
  query?: Record<string, string | number>;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
}

const QUOTE = 0x22;
const LF = 0x0a;

/** Counts record ends outside quoted fields across chunks (RFC 4180: a quoted field may hold line breaks). */
function recordCounter() {
  let quoted = false;
  let records = 0;
  return (chunk: Uint8Array) => {
    for (const byte of chunk) {
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF && !quoted) records++;
    }
    return records;
  };
}

async function failure(response: Response): Promise<HttpError> {
  let message: string = GENERAL.apiError;
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body?.message === 'string' && body.message) message = body.message;
  } catch {
    /* not JSON */
  }
  return { message, statusCode: response.status };
}

const filenameOf = (response: Response, fallback: string) => /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/** Fetches the whole export; answers the file and the records it holds. */
export async function fetchCsv({ path, query = {}, signal, onProgress }: ExportRequest): Promise<{ blob: Blob; filename: string; rows: number }> {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const headers: Record<string, string> = { Accept: CSV_MEDIA_TYPE };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${API_PREFIX}/${path}${search ? `?${search}` : ''}`, { headers, signal });
  if (!response.ok || !response.body) throw await failure(response);
  const reader = response.body.getReader();
  // A cancel stops the reading at once, whatever the body does with the signal; the part read is dropped.
  signal?.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
  const count = recordCounter();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let records = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    records = count(value);
    onProgress?.({ bytes, rows: Math.max(0, records - 1) });
  }
  if (signal?.aborted) throw new DOMException('The export was cancelled.', 'AbortError');
  const rows = Math.max(0, records - 1);
  return { blob: new Blob(chunks as BlobPart[], { type: `${CSV_MEDIA_TYPE};charset=utf-8` }), filename: filenameOf(response, `${path.replace(/\W+/g, '-')}.csv`), rows };
}

/** Hands a file to the browser's downloads. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
