import { type CallItem, digestBytes, encodeMsgpack, routes, valueRef } from '@weft/protocol';
import { callIdOf, completeOf } from './calls.js';
import { post, send } from './http.js';

/**
 * Letters only, so every engine's search cuts it as one word; `n` in base
 * 25 (a–y) ended by `z`, so no word is the beginning of another and a
 * substring check finds exactly it.
 */
export function word(prefix: string, n: number): string {
  let letters = '';
  let rest = n;
  do {
    letters += String.fromCharCode(97 + (rest % 25));
    rest = Math.floor(rest / 25);
  } while (rest > 0);
  return `${prefix}${letters}z`;
}

/** One traced request of the scenario: a root and children, each with words of its own. */
export interface ScenarioTrace {
  index: number;
  traceId: string;
  user: string;
  session: string;
  tier: number;
  calls: { id: string; startedAt: number; secret: string }[];
  /** The word of the value only this trace refers to. */
  ownValueWord: string;
  /** The digest of the file only this trace refers to, if it has one. */
  file: string | undefined;
  sharesPrompt: boolean;
}

/** Words every call holds (so a search finds every kept call, with a snippet). */
export const COMMON_WORD = 'commonword';
/** The word of the value several traces share. */
export const SHARED_WORD = 'sharedpromptword';

/**
 * Stores `count` traces in `project` over HTTP: users, sessions and a tier
 * attribute on the roots; a secret word per call in its inputs and output;
 * a deduplicated value per trace, one shared by every third trace, and a
 * file for every other trace. Returns the model the checks compare with.
 */
export async function storeScenario(
  url: string,
  project: string,
  { count, start, token }: { count: number; start: number; token?: string },
): Promise<ScenarioTrace[]> {
  const shared = encodeMsgpack({ role: 'system', content: `${SHARED_WORD} you are terse` });
  const sharedDigest = digestBytes(shared);
  const traces: ScenarioTrace[] = [];
  const items: unknown[] = [{ type: 'value', digest: sharedDigest, bytes: shared }];
  let n = 0;
  for (let t = 0; t < count; t++) {
    const traceId = callIdOf(1_000 + n, 7);
    const own = encodeMsgpack({ note: `${word('ownvalue', t)} private` });
    const ownDigest = digestBytes(own);
    items.push({ type: 'value', digest: ownDigest, bytes: own });
    let file: string | undefined;
    if (t % 2 === 0) {
      const bytes = Buffer.from(`file of trace ${t} ${project}`);
      const created = await send(url, routes.fileCreate(project), {
        method: 'POST',
        body: bytes,
        headers: {
          'content-type': 'application/octet-stream',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      file = created.body.digest as string;
    }
    const trace: ScenarioTrace = {
      index: t,
      traceId,
      user: `user${t % 3}`,
      session: `session${t % 4}`,
      tier: t % 2,
      calls: [],
      ownValueWord: word('ownvalue', t),
      file,
      sharesPrompt: t % 3 === 0,
    };
    const size = 1 + (t % 3);
    for (let i = 0; i < size; i++) {
      const id = i === 0 ? traceId : callIdOf(1_000 + n, 7);
      const startedAt = start + t * 1_000 + i * 10;
      const secret = word('secret', t * 10 + i);
      trace.calls.push({ id, startedAt, secret });
      const inputs: Record<string, unknown> = { q: `${secret} ${COMMON_WORD}` };
      if (i === 0) {
        inputs.own = valueRef(ownDigest);
        if (trace.sharesPrompt) inputs.system = valueRef(sharedDigest);
        if (file !== undefined) inputs.doc = `weft:///${project}/file/${file}`;
      }
      const call: CallItem = completeOf(0, {
        id,
        traceId,
        parentId: i === 0 ? null : traceId,
        startedAt,
        endedAt: startedAt + 5,
        inputs,
        output: { a: `answer ${secret}` },
        ...(i === 0
          ? { sessionId: trace.session, attributes: { 'user.id': trace.user, tier: trace.tier } }
          : {}),
      } as never);
      items.push(call);
      n++;
    }
    traces.push(trace);
  }
  const stored = await post(url, routes.callBatch(), { project, items }, { format: 'msgpack', token });
  if (stored.status !== 200) throw new Error(`storing the scenario failed: ${JSON.stringify(stored.body)}`);
  return traces;
}
