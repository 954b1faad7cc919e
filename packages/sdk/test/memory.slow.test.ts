import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from './support/index.js';

const script = fileURLToPath(new URL('./fixtures/memory-child.ts', import.meta.url));

/** Heap growth allowed after 200,000 calls once garbage is collected: far below one byte of state per call kept. */
const MAX_GROWTH_BYTES = 8 * 1024 * 1024;

it('200,000 calls through the pipeline: registry empties, caches stay bounded, heap after GC grows < 8 MiB', async () => {
  const child = await runChild(script, { args: ['200000'], execArgv: ['--expose-gc'] });
  const line = await child.waitForLine(/^\{/);
  const report = JSON.parse(line) as {
    growth: number;
    acked: number;
    inFlight: number;
    pendingUnits: number;
    intake: number;
    pool: { running: number; waiting: number };
    objects: { knownDigests: number; knownDigestsMax: number };
  };
  console.log(
    `memory: heap growth after GC ${(report.growth / 1024 / 1024).toFixed(2)} MiB over 200,000 calls`,
  );
  expect(await child.exited).toMatchObject({ code: 0 });
  expect(report.acked).toBe(220_000);
  expect(report).toMatchObject({ inFlight: 0, pendingUnits: 0, intake: 0, pool: { running: 0, waiting: 0 } });
  expect(report.objects.knownDigests).toBeLessThanOrEqual(report.objects.knownDigestsMax);
  expect(report.growth).toBeLessThan(MAX_GROWTH_BYTES);
});
