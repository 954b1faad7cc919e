import { type Call, call, routes } from '@weft/protocol';
import { getJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** One call with every stored field (values expanded, feedback included). */
export async function readCall(target: ServerTarget, project: string, id: string): Promise<Call> {
  return parseAnswer(call, await getJson(target, routes.call(project, id)), target, `call ${id}`);
}
