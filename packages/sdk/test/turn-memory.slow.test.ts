import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from './support/index.js';

const script = fileURLToPath(new URL('./fixtures/turn-memory-child.ts', import.meta.url));

/** The bound: 20,000 calls started on one turn add at most this much heap beyond their own values. */
const BOUND_BYTES = 64 * 1024 * 1024;

it('20,000 calls started on one turn retain at most 64 MiB of heap beyond their own values while they wait for the pipeline', async () => {
  const child = await runChild(script, { args: ['20000', '4096'], execArgv: ['--expose-gc'] });
  const line = await child.waitForLine(/^\{/);
  const result = JSON.parse(line) as {
    retainedBeyondValues: number;
    acked: number;
    drained: { sent: number; pending: number };
  };
  expect(result.acked).toBeGreaterThanOrEqual(20_000);
  expect(result.drained).toMatchObject({ sent: 20_000, pending: 0 });
  expect(result.retainedBeyondValues).toBeLessThanOrEqual(BOUND_BYTES);
}, 120_000);
