import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runChild } from '../support/index.js';

const script = fileURLToPath(new URL('../fixtures/abandoned-client-stream-child.ts', import.meta.url));

it('a wrapped client stream the caller stops reading ends as abandoned with what was read so far', async () => {
  const child = await runChild(script, { execArgv: ['--expose-gc'] });
  const report = JSON.parse(await child.waitForLine(/^\{/)) as {
    read: string;
    inFlight: number;
    ended: { exception?: string; output?: { choices?: { message?: { content?: string } }[] } }[];
  };
  expect(report.read).toBe('first second');
  expect(report.inFlight).toBe(0);
  expect(report.ended).toHaveLength(1);
  expect(report.ended[0]?.exception).toBe('StreamAbandonedError');
  expect(report.ended[0]?.output?.choices?.[0]?.message?.content).toBe('first second');
});
