import type { CallComplete } from '@weft/protocol';

/** Ids of the generated trace: the trace (= its root) and the calls the outline must name. */
export interface AgentTrace {
  traceId: string;
  items: CallComplete[];
  /** The tool call that failed (and made its step and the run fail). */
  failingId: string;
  /** The slowest step's LLM call. */
  slowestId: string;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * An agent run of `steps` steps, each an `llm.chat` call (with usage and
 * cost) and `toolsPerStep` `tool.search` calls: 1 + steps × (2 + toolsPerStep)
 * calls (1,000 × 25 + 1 = 25,001). Step 637's 12th search times out, which
 * fails its step and the run; step 211's LLM call is the slowest.
 */
export function agentTrace({
  steps = 1_000,
  toolsPerStep = 23,
  t0 = Date.UTC(2026, 10, 27, 9),
} = {}): AgentTrace {
  const head = '01a21d00-aaaa-7bbb';
  const traceId = `${head}-8000-000000000000`;
  let next = 1;
  const newId = () => `${head}-${hex(0x8000 + ((next >> 48) & 0x7fff), 4)}-${hex(next++, 12)}`;
  const items: CallComplete[] = [];
  const failStep = Math.min(637, steps - 1);
  const slowStep = Math.min(211, steps - 2);
  let failingId = '';
  let slowestId = '';
  let at = t0 + 5;
  for (let s = 0; s < steps; s++) {
    const stepId = newId();
    const stepStart = at;
    const llmId = newId();
    const llmMs = s === slowStep ? 8_500 : 400 + (s % 7) * 50;
    if (s === slowStep) slowestId = llmId;
    const usage = {
      'gpt-4o-mini': {
        requests: 1,
        inputTokens: 900,
        outputTokens: 100,
        totalTokens: 1_000,
        costUsd: 0.0002,
      },
    };
    items.push({
      type: 'complete',
      id: llmId,
      traceId,
      parentId: stepId,
      opName: 'llm.chat',
      startedAt: at,
      endedAt: at + llmMs,
      inputs: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `step ${s}: find the order` }] },
      output: { choices: [{ message: { role: 'assistant', content: `calling search for step ${s}` } }] },
      summary: { latencyMs: llmMs, status: 'success', usage, costUsd: 0.0002 },
    });
    at += llmMs;
    let stepFailed = false;
    for (let t = 0; t < toolsPerStep; t++) {
      const id = newId();
      const fails = s === failStep && t === 11;
      if (fails) {
        failingId = id;
        stepFailed = true;
      }
      items.push({
        type: 'complete',
        id,
        traceId,
        parentId: stepId,
        opName: 'tool.search',
        startedAt: at,
        endedAt: at + (fails ? 3_000 : 3),
        inputs: { query: `order ${s}-${t}`, index: 'orders' },
        ...(fails
          ? {
              exception: { name: 'TimeoutError', message: 'refund-service upstream timed out after 3000 ms' },
            }
          : { output: { hits: [{ id: `${s}-${t}`, score: 0.5 }] } }),
        summary: { latencyMs: fails ? 3_000 : 3, status: fails ? 'error' : 'success' },
      });
      at += fails ? 3_000 : 3;
    }
    items.push({
      type: 'complete',
      id: stepId,
      traceId,
      parentId: traceId,
      opName: 'step',
      startedAt: stepStart,
      endedAt: at,
      inputs: { step: s },
      ...(stepFailed
        ? {
            exception: {
              name: 'TimeoutError',
              message: 'a tool failed: refund-service upstream timed out after 3000 ms',
            },
          }
        : { output: 'done' }),
      summary: {
        latencyMs: at - stepStart,
        status: stepFailed ? 'error' : 'success',
        usage,
        costUsd: 0.0002,
      },
    });
    at += 1;
  }
  const totalUsage = {
    'gpt-4o-mini': {
      requests: steps,
      inputTokens: 900 * steps,
      outputTokens: 100 * steps,
      totalTokens: 1_000 * steps,
      costUsd: 0.0002 * steps,
    },
  };
  items.push({
    type: 'complete',
    id: traceId,
    traceId,
    parentId: null,
    opName: 'agent',
    startedAt: t0,
    endedAt: at,
    inputs: { task: 'refund order 123' },
    exception: {
      name: 'TimeoutError',
      message: 'a tool failed: refund-service upstream timed out after 3000 ms',
    },
    summary: { latencyMs: at - t0, status: 'error', usage: totalUsage, costUsd: 0.0002 * steps },
  });
  return { traceId, items, failingId, slowestId };
}
