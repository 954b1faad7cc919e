import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { ServerUnreachableError } from '../errors/index.js';
import { answerError, type ServerTarget } from './request-json.js';

// As for JSON answers: fail within seconds when nothing comes; an export may
// then stream for as long as it has rows.
const CONNECT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 60_000;

/**
 * GETs a route whose answer is a stream (an export) and pipes its bytes into
 * `sink` as they arrive, never holding the whole answer. An error answer
 * becomes the same `ServerResponseError` as a JSON request's.
 */
export async function download(target: ServerTarget, path: string, sink: Writable): Promise<void> {
  const href = `${target.url.replace(/\/+$/, '')}${path}`;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(href, {
      method: 'GET',
      headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
      headersTimeout: CONNECT_TIMEOUT_MS + IDLE_TIMEOUT_MS,
      bodyTimeout: IDLE_TIMEOUT_MS,
    });
  } catch (error) {
    throw new ServerUnreachableError(target.url, error);
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw answerError(target, path, response.statusCode, await response.body.text());
  }
  await pipeline(response.body, sink);
}
