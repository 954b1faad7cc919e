import { CONTENT_TYPE_JSON, errorResponse } from '@weft/protocol';
import { request } from 'undici';
import { ServerResponseError, ServerUnreachableError } from '../errors/index.js';

/** Where and how to reach a Weft server. */
export interface ServerTarget {
  /** Base URL, e.g. `http://127.0.0.1:7420`. */
  url: string;
  /** Bearer token, when the server requires one. */
  token?: string | undefined;
}

// A CLI user waits at the terminal: fail within seconds, not minutes.
const CONNECT_TIMEOUT_MS = 5_000;
const RESPONSE_TIMEOUT_MS = 30_000;

/** POSTs a JSON body to a route of the server and returns the decoded JSON answer. */
export function postJson(target: ServerTarget, path: string, body: unknown): Promise<unknown> {
  return requestJson(target, 'POST', path, body);
}

/** GETs a route of the server and returns the decoded JSON answer. */
export function getJson(target: ServerTarget, path: string): Promise<unknown> {
  return requestJson(target, 'GET', path, undefined);
}

/**
 * Sends one request to a route of the server and returns the decoded JSON
 * answer. Transport failures become {@link ServerUnreachableError}; error
 * answers become {@link ServerResponseError} carrying the server's code.
 */
export async function requestJson(
  target: ServerTarget,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
): Promise<unknown> {
  // Appended, not resolved: a server behind a path prefix (http://host/weft) keeps it.
  const href = `${target.url.replace(/\/+$/, '')}${path}`;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(href, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': CONTENT_TYPE_JSON }),
        accept: CONTENT_TYPE_JSON,
        ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headersTimeout: RESPONSE_TIMEOUT_MS,
      bodyTimeout: RESPONSE_TIMEOUT_MS,
      signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS + RESPONSE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ServerUnreachableError(target.url, error);
  }
  const text = await response.body.text();
  const json = parseJson(text);
  if (response.statusCode >= 200 && response.statusCode < 300) {
    if (json === undefined) {
      throw new ServerResponseError({
        statusCode: response.statusCode,
        code: 'WEFT_BAD_RESPONSE',
        message: `The server at ${target.url} answered ${path} with a body that is not JSON; is it a Weft server?`,
      });
    }
    return json;
  }
  throw answerError(target, path, response.statusCode, text);
}

/**
 * The error of a non-2xx answer: the server's code and message when it sent
 * a Weft error body, else the status and the start of the body.
 */
export function answerError(
  target: ServerTarget,
  path: string,
  statusCode: number,
  text: string,
): ServerResponseError {
  const parsed = errorResponse.safeParse(parseJson(text));
  if (parsed.success) {
    const { code, message, path: field } = parsed.data.error;
    // The server cannot know which flag carries the token; the CLI can.
    const hint = statusCode === 401 ? ' Pass the server token with --token or WEFT_API_KEY.' : '';
    return new ServerResponseError({ statusCode, code, message: message + hint, path: field });
  }
  return new ServerResponseError({
    statusCode,
    code: undefined,
    message: `The server at ${target.url} answered ${path} with HTTP ${statusCode}${text ? `: ${text.slice(0, 200)}` : ''}`,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
