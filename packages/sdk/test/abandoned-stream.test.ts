import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from './support/index.js';

const script = fileURLToPath(new URL('./fixtures/abandoned-stream-child.ts', import.meta.url));

it('a streamed call whose stream is dropped unfinished ends once the stream is collected; a kept one stays running', async () => {
  const child = await runChild(script, { execArgv: ['--expose-gc'] });
  const report = JSON.parse(await child.waitForLine(/^\{/)) as {
    inFlight: number;
    ended: { exception?: string; message?: string; output: unknown }[];
    keptRead: string;
    inFlightAfter: number;
  };
  // Three dropped streams ended; only the kept one was still running.
  expect(report.inFlight).toBe(1);
  expect(report.ended).toHaveLength(3);
  for (const call of report.ended) {
    expect(call.exception).toBe('StreamAbandonedError');
    expect(call.message).toContain('dropped after');
  }
  // What was read before the drop is kept as the output.
  expect(report.ended.map((call) => call.output).sort()).toEqual(['a', 't0 ', []].sort());
  expect(report.keptRead).toBe('t0 t1 ');
  expect(report.inFlightAfter).toBe(0);
});
