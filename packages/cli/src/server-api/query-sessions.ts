import { routes, type SessionQuery, type SessionSummary, sessionQueryResponse } from '@weft/protocol';
import { postJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** One page of a project's sessions, most recently active first. */
export async function querySessions(
  target: ServerTarget,
  query: SessionQuery,
): Promise<{ sessions: SessionSummary[]; nextCursor: string | null }> {
  const answer = await postJson(target, routes.sessionQuery(), query);
  return parseAnswer(sessionQueryResponse, answer, target, 'a session query');
}
