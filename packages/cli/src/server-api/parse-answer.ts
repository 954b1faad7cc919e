import type { z } from 'zod';
import { ServerResponseError } from '../errors/index.js';
import type { ServerTarget } from '../http/index.js';

/**
 * A server's answer read with the protocol's schema for it; an answer of
 * another shape (not a Weft server, or another version) is a clear error.
 */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  body: unknown,
  target: ServerTarget,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ServerResponseError({
    statusCode: 200,
    code: 'WEFT_BAD_RESPONSE',
    message: `The server at ${target.url} answered ${what} with an unexpected body (${parsed.error.issues[0]?.message ?? 'invalid'}); is it a Weft server of a matching version?`,
  });
}
