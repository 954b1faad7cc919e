import { randomUUID } from 'node:crypto';
import { feedbackCreate, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { feedbackListParams, routePattern } from '../http/index.js';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseCreate = validate(feedbackCreate, 'body');
const parseList = validate(feedbackListParams, 'params');

/** Feedback on calls: give one (idempotent by `id`; the call may not have arrived yet) and list a call's. */
export function registerFeedbackRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.feedbackCreate(), async (request) => {
    const { project, id = randomUUID(), ...rest } = parseCreate(request.body);
    await storage.putFeedback(project, [{ type: 'feedback', id, createdAt: Date.now(), ...rest }]);
    // A repeated id keeps the first feedback stored under it; answer with what is stored.
    const stored = (await storage.listFeedback(project, rest.callId)).find((f) => f.id === id);
    return stored ?? { id, createdAt: Date.now(), ...withoutCallId(rest) };
  });

  app.get(routePattern(routes.feedbackList, 'project', 'callId'), async (request) => {
    const { project, callId } = parseList(request.params);
    return { feedback: await storage.listFeedback(project, callId) };
  });
}

function withoutCallId<T extends { callId: string }>(value: T): Omit<T, 'callId'> {
  const { callId: _, ...rest } = value;
  return rest;
}
