import { sessionId as sessionIdSchema } from '@weft/protocol';
import { InvalidOptionsError } from '../errors/index.js';
import { callContext } from './call-context.js';

/**
 * Runs `fn` with every call started inside it (at any depth) belonging to the
 * session `id` — a conversation, a chat thread, an agent run — so the server
 * lists its traces as the session's turns. An inner `withSession` wins.
 * Returns what `fn` returns.
 *
 * @example
 * await weft.withSession(threadId, () => chat(message));
 */
export function withSession<T>(id: string, fn: () => T): T {
  if (!sessionIdSchema.safeParse(id).success) {
    throw new InvalidOptionsError(
      'sessionId',
      `withSession: the session id must be a string of 1–256 characters, got ${JSON.stringify(id)}.`,
    );
  }
  const frame = callContext.getStore();
  return callContext.run(
    { call: frame?.call, attributes: frame?.attributes, sessionId: id, remoteParent: frame?.remoteParent },
    fn,
  );
}
