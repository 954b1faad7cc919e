import { getEventListeners } from 'node:events';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { Evaluation } from '../../src/eval/evaluation.js';
import type { PredictContext } from '../../src/eval/model.js';
import { type FakeProvider, startFakeProvider } from '../fixtures/fake-provider/index.js';

let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());

/** Process warnings emitted while `fn` runs. */
async function warningsDuring(fn: () => Promise<unknown>): Promise<Error[]> {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  onTestFinished(() => {
    process.off('warning', onWarning);
  });
  await fn();
  // Process warnings are emitted on a later tick.
  await new Promise((resolve) => setImmediate(resolve));
  return warnings;
}

it('gives each row its own AbortSignal, released when the row ends: no MaxListenersExceededWarning over 40 rows with the OpenAI client', async () => {
  const openai = new OpenAI({ apiKey: 'test', baseURL: `${provider.url}/v1`, maxRetries: 0 });
  const run = new AbortController();
  const signals = new Set<AbortSignal>();
  let mostListenersOnRun = 0;
  const model = async function ask(row: Record<string, unknown>, { signal }: PredictContext) {
    signals.add(signal);
    mostListenersOnRun = Math.max(mostListenersOnRun, getEventListeners(run.signal, 'abort').length);
    const reply = await openai.chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: `row ${String(row.i)}` }] },
      { signal }, // as docs/evaluations.md advises
    );
    expect(signal.aborted).toBe(false);
    return reply.choices[0]?.message.content;
  };
  const ev = new Evaluation({ name: 'row-signal', dataset: Array.from({ length: 40 }, (_, i) => ({ i })) });
  const warnings = await warningsDuring(() =>
    ev.evaluate(model, { concurrency: 4, signal: run.signal, progress: false, print: false }),
  );
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  expect(ev.lastRun?.results.filter((r) => r.error !== undefined)).toEqual([]);
  expect(signals.size).toBe(40);
  // The run's signal holds at most one listener of the runner's, whatever the rows did, and none after the run.
  expect(mostListenersOnRun).toBeLessThanOrEqual(1);
  expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
});

it("aborts the rows in flight when the run's signal aborts, with its reason", async () => {
  const run = new AbortController();
  const started: AbortSignal[] = [];
  const model = async function wait(_row: Record<string, unknown>, { signal }: PredictContext) {
    started.push(signal);
    if (started.length === 3) run.abort(new Error('stop now'));
    await new Promise((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  const ev = new Evaluation({ name: 'row-abort', dataset: Array.from({ length: 20 }, (_, i) => ({ i })) });
  await expect(
    ev.evaluate(model, { concurrency: 3, signal: run.signal, progress: false, print: false }),
  ).rejects.toThrow('stop now');
  expect(started).toHaveLength(3);
  for (const signal of started) expect(signal.reason).toEqual(new Error('stop now'));
});
