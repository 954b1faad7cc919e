import type { BatchItem, CallComplete, EvaluationRowResult, EvaluationSummary } from '@weft/protocol';
import { EVALUATE_OP, PREDICT_AND_SCORE_OP } from '@weft/protocol';

/** A fixed instant, so printed tables are the same on every run. */
export const T0 = Date.UTC(2026, 10, 20, 9, 0, 0, 0);
export const shopId = (n: number) => `01a20000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`;

const complete = (
  n: number,
  fields: Partial<CallComplete> & { opName: string; startedAt: number },
): CallComplete => ({
  type: 'complete',
  id: shopId(n),
  traceId: shopId(n),
  parentId: null,
  endedAt: fields.startedAt + 100,
  inputs: {},
  summary: { latencyMs: 100, status: 'success' },
  ...fields,
});

/** A chat turn `chat(message, history)` of a session, with a reply. */
const turn = (n: number, session: string, message: string, reply: string, at: number) =>
  complete(n, {
    opName: 'chat',
    startedAt: at,
    inputs: { message, history: [] },
    output: reply,
    sessionId: session,
    attributes: { 'user.id': 'u-ada', tags: ['chat'] },
  });

/**
 * A small shop: an LLM call with messages, refund calls with attributes,
 * tags, users and feedback (one failed), a two-turn session, and two
 * evaluation runs plus one that crashed before its summary.
 */
export function shopItems(): BatchItem[] {
  const usage = {
    'gpt-4o-mini': {
      requests: 1,
      inputTokens: 1_000,
      outputTokens: 200,
      totalTokens: 1_200,
      costUsd: 0.00027,
    },
  };
  const items: BatchItem[] = [
    complete(1, {
      opName: 'refund',
      startedAt: T0,
      endedAt: T0 + 1_500,
      inputs: { order: 'A-1001', reason: 'damaged parcel' },
      output: { refunded: true },
      summary: { latencyMs: 1_500, status: 'success', usage, costUsd: 0.00027 },
      attributes: { env: 'prod', tier: 2, 'user.id': 'u-ada', tags: ['vip', 'eu'] },
    }),
    {
      type: 'complete',
      id: shopId(2),
      traceId: shopId(1),
      parentId: shopId(1),
      opName: 'openai.chat.completions.create',
      startedAt: T0 + 10,
      endedAt: T0 + 1_210,
      inputs: {
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'You approve refunds.' },
          { role: 'user', content: 'Order A-1001 arrived damaged.' },
        ],
      },
      output: { choices: [{ message: { role: 'assistant', content: 'Refund approved for A-1001.' } }] },
      summary: { latencyMs: 1_200, status: 'success', usage, costUsd: 0.00027 },
    },
    complete(3, {
      opName: 'refund',
      startedAt: T0 + 60_000,
      endedAt: T0 + 60_040,
      inputs: { order: 'B-2002', reason: 'never arrived' },
      exception: { name: 'TimeoutError', message: 'payments service timed out' },
      summary: { latencyMs: 40, status: 'error' },
      attributes: { env: 'staging', tier: 1, 'user.id': 'u-bob', tags: ['eu'] },
    }),
    turn(10, 'thread-A', 'Where is my order?', 'It ships tomorrow.', T0 + 120_000),
    turn(11, 'thread-A', 'Can I change the address?', 'Yes, until it ships.', T0 + 180_000),
    {
      type: 'feedback',
      id: shopId(90),
      callId: shopId(1),
      name: 'thumbs',
      value: true,
      source: 'user',
      createdAt: T0 + 5_000,
    },
    {
      type: 'feedback',
      id: shopId(91),
      callId: shopId(3),
      name: 'thumbs',
      value: false,
      comment: 'still waiting',
      createdAt: T0 + 65_000,
    },
    ...evaluationRun(200, 'model-a', [true, false, false], T0 + 300_000),
    ...evaluationRun(300, 'model-b', [true, true, false], T0 + 400_000),
    // A run that crashed before writing its summary: its inputs still name it.
    complete(400, {
      opName: EVALUATE_OP,
      startedAt: T0 + 500_000,
      endedAt: T0 + 500_900,
      inputs: {
        evaluation: 'qa',
        model: 'model-c',
        dataset: 'weft:///shop/object/qa:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        config: {},
      },
      exception: { name: 'Error', message: 'the run was interrupted (its process died)' },
      summary: { latencyMs: 900, status: 'error' },
    }),
  ];
  return items;
}

/** An `Evaluation.evaluate` call with a summary and one row call per entry of `exact`. */
export function evaluationRun(n: number, model: string, exact: boolean[], at: number): CallComplete[] {
  const passed = exact.filter(Boolean).length;
  const summary: EvaluationSummary = {
    evaluation: 'qa',
    model,
    rows: exact.length,
    trials: 1,
    completed: exact.length,
    errors: 0,
    scores: { exact: { kind: 'boolean', count: exact.length, passed, passRate: passed / exact.length } },
    latencyMs: { p50: 2, p95: 3 },
  };
  const rows = exact.map((value, i): CallComplete => {
    const result: EvaluationRowResult = {
      rowIndex: i,
      trial: 0,
      output: `answer ${i}`,
      scores: { exact: value },
      latencyMs: 2,
    };
    return {
      type: 'complete',
      id: shopId(n + 1 + i),
      traceId: shopId(n),
      parentId: shopId(n),
      opName: PREDICT_AND_SCORE_OP,
      startedAt: at + 1 + i,
      endedAt: at + 3 + i,
      inputs: { rowIndex: i },
      output: result,
    };
  });
  return [
    complete(n, {
      opName: EVALUATE_OP,
      startedAt: at,
      endedAt: at + 10,
      inputs: { evaluation: 'qa', model },
      output: summary,
    }),
    ...rows,
  ];
}
