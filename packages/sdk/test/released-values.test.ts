import type { CallItem } from '@weft/protocol';
import { afterEach, expect, it } from 'vitest';
import * as weft from '@weft/sdk';
import type { CallRecord } from '../src/calls/call-record.js';
import { createClient, type RecordSink, resetWeft } from '../src/testing/index.js';
import { memorySink } from './support/memory-sink.js';
import { runningCall } from './support/running-call.js';

// Once a call's last record is encoded the pipeline drops the call's values
// (`releaseValues` in src/pipeline/pipeline.ts): a long-lived call record
// must not keep its output's strings alive through the old-to-new
// remembered set. These tests pin when that happens, and that what was sent
// is untouched by it.

afterEach(async () => {
  await resetWeft();
});

/** A memory sink that also resolves `started` when the first start record arrives. */
function watchedSink(): { sink: RecordSink & { items: CallItem[] }; started: Promise<void> } {
  const sink = memorySink();
  let resolveStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    resolveStarted = resolve;
  });
  const add = sink.add.bind(sink);
  sink.add = (record) => {
    add(record);
    if (sink.items.at(-1)?.type === 'start') resolveStarted();
  };
  return { sink, started };
}

it('drops a finished call’s inputs and output once its record is encoded, and sends them intact', async () => {
  const { sink } = watchedSink();
  const client = createClient({ project: 'release', outbox: false, handleExit: false }, () => sink);
  const text = 'x'.repeat(100_000);
  let record: CallRecord | undefined;
  const answer = weft.op(async function answer(question: string) {
    record = runningCall();
    return { text, question };
  });

  await answer('why?');
  await client.flush();

  expect(record?.inputs).toBeUndefined();
  expect(record?.output).toBeUndefined();
  const [item] = sink.items;
  expect(item).toMatchObject({ type: 'complete', inputs: { question: 'why?' } });
  const output = (item as Extract<CallItem, { type: 'complete' }>).output as { text: unknown };
  // The output may be sent as a value marker (sent once); what matters here is that it was written before release.
  expect(output).toBeDefined();
});

it('keeps a long call’s inputs after its start record, and drops both once its end record is encoded', async () => {
  const { sink, started } = watchedSink();
  const client = createClient(
    { project: 'release', outbox: false, handleExit: false, startDelayMs: 0 },
    () => sink,
  );
  let record: CallRecord | undefined;
  let inputsWhileRunning: unknown;
  const slow = weft.op(async function slow(n: number) {
    record = runningCall();
    await started;
    inputsWhileRunning = record.inputs;
    return n * 2;
  });

  await slow(21);
  await client.flush();

  expect(inputsWhileRunning).toBeDefined();
  expect(record?.inputs).toBeUndefined();
  expect(record?.output).toBeUndefined();
  expect(sink.items.map((i) => i.type)).toEqual(['start', 'end']);
  expect(sink.items[0]).toMatchObject({ type: 'start', inputs: { n: 21 } });
  expect(sink.items[1]).toMatchObject({ type: 'end', output: 42 });
});

it('still redacts a failed long call’s exception by its inputs’ secrets after the start record was sent', async () => {
  const { sink, started } = watchedSink();
  const client = createClient(
    { project: 'release', outbox: false, handleExit: false, startDelayMs: 0, redactKeys: ['apiKey'] },
    () => sink,
  );
  const failing = weft.op(async function failing(apiKey: string) {
    await started;
    throw new Error(`rejected key ${apiKey}`);
  });

  await expect(failing('sk-secret-123456')).rejects.toThrow('rejected key');
  await client.flush();

  const end = sink.items.find((i) => i.type === 'end');
  expect(JSON.stringify(end)).not.toContain('sk-secret-123456');
});
