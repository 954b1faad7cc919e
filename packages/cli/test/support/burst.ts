import { routes } from '@weft/protocol';
import * as weft from '@weft/sdk';
import { request } from 'undici';

/**
 * `count` SDK calls of an op `work(i)` through the client already set up
 * with `weft.init`, yielding to I/O now and then so a burst and a fault
 * injected from an event interleave.
 */
export async function sendCalls(count: number): Promise<void> {
  const work = weft.op(async function work(i: number) {
    return { doubled: i * 2 };
  });
  for (let i = 0; i < count; i++) {
    await work(i);
    if (i % 500 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/**
 * How many times each `work(i)` call of `project` is read, paging through
 * every call in start order, the pages alternating between `bases` (each
 * continuing the other's cursor).
 */
export async function readCounts(bases: readonly string[], project: string): Promise<Map<number, number>> {
  const seen = new Map<number, number>();
  let cursor: string | null = null;
  let page = 0;
  do {
    const base = bases[page % bases.length] as string;
    const res = await request(new URL(routes.callQuery(), base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project,
        limit: 1_000,
        sort: { field: 'startedAt', direction: 'asc' },
        ...(cursor === null ? {} : { cursor }),
      }),
    });
    if (res.statusCode !== 200)
      throw new Error(`call query answered ${res.statusCode}: ${await res.body.text()}`);
    const body = (await res.body.json()) as { calls: { inputs: { i: number } }[]; nextCursor: string | null };
    for (const call of body.calls) seen.set(call.inputs.i, (seen.get(call.inputs.i) ?? 0) + 1);
    cursor = body.nextCursor;
    page++;
  } while (cursor !== null);
  return seen;
}
