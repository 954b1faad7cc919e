import { encodeMsgpack } from '@weft/protocol';

export type BodyFormat = 'json' | 'msgpack';

/**
 * Parsed JSON of a reply. Tests assert on it field by field against literal
 * expectations, so a precise type would only restate the protocol schemas.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
type Json = any;

export interface Reply<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

/** POSTs `body` as JSON or msgpack and parses the JSON answer. */
export async function post<T = Json>(
  base: string,
  path: string,
  body: unknown,
  {
    format = 'json',
    token,
    headers = {},
  }: { format?: BodyFormat; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const payload = format === 'msgpack' ? encodeMsgpack(body) : JSON.stringify(body);
  return send<T>(base, path, {
    method: 'POST',
    body: payload as BodyInit,
    headers: {
      'content-type': format === 'msgpack' ? 'application/msgpack' : 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  });
}

/** Sends `body` as JSON with `method` (a deletion query, settings) and parses the JSON answer. */
function sendJson<T>(method: 'DELETE' | 'PUT', base: string, path: string, body: unknown, token?: string) {
  return send<T>(base, path, {
    method,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/** Sends a DELETE with a JSON body (a deletion query) and parses the JSON answer. */
export function del<T = Json>(
  base: string,
  path: string,
  body: unknown,
  { token }: { token?: string } = {},
): Promise<Reply<T>> {
  return sendJson<T>('DELETE', base, path, body, token);
}

/** PUTs `body` as JSON and parses the JSON answer. */
export function put<T = Json>(
  base: string,
  path: string,
  body: unknown,
  { token }: { token?: string } = {},
): Promise<Reply<T>> {
  return sendJson<T>('PUT', base, path, body, token);
}

/** GETs a path and parses a JSON answer (text otherwise). */
export async function get<T = Json>(
  base: string,
  path: string,
  { token, headers = {} }: { token?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  return send<T>(base, path, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** Sends a raw request and parses a JSON answer (text otherwise). */
export async function send<T = Json>(base: string, path: string, init: RequestInit): Promise<Reply<T>> {
  const response = await fetch(new URL(path, base), init);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    body: type.includes('json') ? JSON.parse(text) : text,
    headers: response.headers,
  };
}
