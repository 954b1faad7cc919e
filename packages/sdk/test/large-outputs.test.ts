import type { CallItem } from '@weft/protocol';
import * as weft from '@weft/sdk';
import { afterEach, expect, it } from 'vitest';
import type { CallRecord } from '../src/calls/call-record.js';
import { LARGE_OUTPUT_BYTES } from '../src/pipeline/pipeline.js';
import { SLICE } from '../src/pipeline/pool.js';
import { createClient, resetWeft } from '../src/testing/index.js';
import { memorySink } from './support/memory-sink.js';
import { runningCall } from './support/running-call.js';

// A call whose output is large is encoded at the end of the turn it finished
// in (a microtask), not on a later turn with the pool: its fresh strings
// then die young instead of waiting, surviving minor GCs and being promoted
// (bench/RESULTS.md, "80 KB step"). Small outputs still wait for the pool.

afterEach(async () => {
  await resetWeft();
});

function reply(chars: number): { choices: { message: { content: string; api_key?: string } }[] } {
  return { choices: [{ message: { content: 'a reply. '.repeat(Math.ceil(chars / 9)).slice(0, chars) } }] };
}

it('regression: a call with a large output waited for the pool’s next turn, holding its reply; now it is encoded (and its values dropped) before the caller resumes', async () => {
  const sink = memorySink();
  createClient({ project: 'large', outbox: false, handleExit: false }, () => sink);
  let record: CallRecord | undefined;
  const model = weft.op(async function model(prompt: string) {
    record = runningCall();
    return reply(LARGE_OUTPUT_BYTES + prompt.length);
  });

  const answer = await model('why?');

  expect(record?.output).toBeUndefined();
  expect(sink.items).toHaveLength(1);
  const item = sink.items[0] as Extract<CallItem, { type: 'complete' }>;
  expect(item).toMatchObject({ type: 'complete', inputs: { prompt: 'why?' } });
  expect(item.output).toEqual(answer);
});

it('a call with a small output still waits for the pool (the caller’s turn pays nothing for it)', async () => {
  const sink = memorySink();
  const client = createClient({ project: 'large', outbox: false, handleExit: false }, () => sink);
  const model = weft.op(async function model(prompt: string) {
    return reply(prompt.length);
  });

  await model('why?');
  expect(sink.items).toHaveLength(0);
  await client.flush();
  expect(sink.items).toHaveLength(1);
});

it('a large output is still redacted (by key and by a redact function), then sent', async () => {
  for (const rules of [{ redactKeys: ['api_key'] }, { redact: (key: string) => key === 'api_key' }]) {
    const sink = memorySink();
    const client = createClient({ project: 'large', outbox: false, handleExit: false, ...rules }, () => sink);
    const model = weft.op(async function model() {
      const out = reply(2 * LARGE_OUTPUT_BYTES);
      out.choices[0]!.message.api_key = 'sk-secret-value';
      return out;
    });

    await model();
    await client.flush();

    expect(sink.items).toHaveLength(1);
    const output = (sink.items[0] as Extract<CallItem, { type: 'complete' }>).output as ReturnType<
      typeof reply
    >;
    expect(output.choices[0]!.message.api_key).not.toBe('sk-secret-value');
    expect(output.choices[0]!.message.content).toHaveLength(2 * LARGE_OUTPUT_BYTES);
    expect(JSON.stringify(sink.items)).not.toContain('sk-secret-value');
    await resetWeft();
  }
});

it('a synchronous burst of large calls encodes one pool slice of them at the end of the turn; the pool takes the rest, yielding between slices', async () => {
  const sink = memorySink();
  const client = createClient({ project: 'large', outbox: false, handleExit: false }, () => sink);
  const model = weft.op(function model(n: number) {
    return { n, ...reply(LARGE_OUTPUT_BYTES) };
  });

  for (let n = 0; n < 3 * SLICE.records; n++) model(n);
  await Promise.resolve();

  expect(sink.items).toHaveLength(SLICE.records);
  await client.flush();
  expect(sink.items).toHaveLength(3 * SLICE.records);
  const sent = sink.items.map((item) => (item as { output: { n: number } }).output.n);
  expect(new Set(sent).size).toBe(3 * SLICE.records);
});
