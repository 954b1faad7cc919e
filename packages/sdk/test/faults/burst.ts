import { setImmediate as nextTurn } from 'node:timers/promises';
import * as weft from '@weft/sdk';

/** What user code saw during a burst. */
export interface BurstResult {
  /** Ids of every traced call, in call order. */
  ids: string[];
  /** Exceptions that escaped an op, or ops that returned something other than what the function returned. */
  userErrors: number;
}

/** Options of {@link runBurst}. */
export interface BurstOptions {
  calls: number;
  /** First value of the call index (the SDK-kill child continues a burst). @default 0 */
  from?: number;
  /** Calls made per turn before yielding to the event loop, so the pipeline and the faults interleave with the burst. @default 500 */
  perTurn?: number;
  /** Called after each turn with the number of calls made so far; awaited (a fault may be injected mid-burst). */
  onProgress?: (done: number) => void | Promise<void>;
}

/**
 * A light op through the real SDK (`weft.op`, the default client): small
 * input, small output. Each call records its own id from inside the op, as
 * user code would see it, and checks that the op returned exactly what the
 * function returned.
 */
export async function runBurst(options: BurstOptions): Promise<BurstResult> {
  const { calls, from = 0, perTurn = 500, onProgress } = options;
  const ids: string[] = [];
  let userErrors = 0;
  const light = weft.op(function light(i: number) {
    const id = weft.currentCall()?.id;
    if (id === undefined) throw new Error('light ran outside a traced call');
    ids.push(id);
    return { i, answer: `answer ${i}` };
  });
  for (let done = 0; done < calls; ) {
    const end = Math.min(calls, done + perTurn);
    for (; done < end; done++) {
      const i = from + done;
      try {
        const out = light(i);
        if (out.i !== i || out.answer !== `answer ${i}`) userErrors += 1;
      } catch {
        userErrors += 1;
      }
    }
    await onProgress?.(done);
    await nextTurn();
  }
  return { ids, userErrors };
}
