import { it } from 'vitest';
import * as weft from 'weft';
import { createClient, resetWeft } from '../src/testing/index.js';

it('prof', async () => {
  let n = 0;
  const client = createClient({ project: 'p', outbox: false, concurrency: 2 }, () => ({ add(r) { n++; setImmediate(() => r.done({ status: 'sent' })); }, flush: async () => {} }));
  const make = weft.op(async function mk(i: number) { return { n: i, messages: [{ role: 'user', content: 'hello world' }] }; });
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 10000 }, (_, i) => make(i)));
    const t1 = performance.now();
    const r = await client.flush();
    console.log((t1 - t0).toFixed(0), (performance.now() - t1).toFixed(0), JSON.stringify(r), n);
  }
  await resetWeft();
});
