import { describe, expect, it } from 'vitest';
import { Backlog } from './backlog.js';
import { Pool } from './pool.js';

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

// The no-deadlock rule has its own file (pool-no-deadlock.test.ts).
describe('Pool: slots, order, failures', () => {
  it('a task that returns a promise holds its slot until it settles; the others wait, in order', async () => {
    const pool = new Pool(1, () => {});
    const gate = deferred<void>();
    const order: number[] = [];
    const done = deferred<void>();
    pool.run(() => gate.promise.then(() => order.push(0)));
    pool.run(() => order.push(1));
    pool.run(() => {
      order.push(2);
      done.resolve();
    });
    expect(pool.running).toBe(1);
    expect(pool.waiting).toBe(2);
    gate.resolve();
    await done.promise;
    expect(order).toEqual([0, 1, 2]);
  });

  it('never runs more than `concurrency` tasks at once', async () => {
    const pool = new Pool(2, () => {});
    const gates = [deferred<void>(), deferred<void>(), deferred<void>()];
    let active = 0;
    let most = 0;
    const all = gates.map((gate) => {
      const finished = deferred<void>();
      pool.run(() => {
        active++;
        most = Math.max(most, active);
        return gate.promise.then(() => {
          active--;
          finished.resolve();
        });
      });
      return finished.promise;
    });
    expect(pool.running).toBe(2);
    expect(pool.waiting).toBe(1);
    for (const gate of gates) gate.resolve();
    await Promise.all(all);
    expect(most).toBe(2);
  });

  it('a throwing or rejecting task is reported and the slot goes on with the next task', async () => {
    const reported: unknown[] = [];
    const pool = new Pool(1, (error) => reported.push(error));
    const done = deferred<void>();
    pool.run(() => {
      throw new Error('sync');
    });
    pool.run(() => Promise.reject(new Error('async')));
    pool.run(() => done.resolve());
    await done.promise;
    expect(reported.map((e) => (e as Error).message)).toEqual(['sync', 'async']);
  });

  it('a failing error channel does not escape the pool', async () => {
    const pool = new Pool(1, () => {
      throw new Error('the channel itself failed');
    });
    const done = deferred<void>();
    pool.run(() => {
      throw new Error('task');
    });
    pool.run(() => done.resolve());
    await done.promise;
    expect(pool.waiting).toBe(0);
  });
});

describe('Pool: slices follow the backlog', () => {
  /** Runs 40 tasks of 0.25 ms each; answers how many ran before the event loop turned. */
  async function tasksBeforeTurn(backlog: Backlog): Promise<number> {
    const pool = new Pool(1, () => {}, backlog);
    let ran = 0;
    let beforeTurn: number | undefined;
    const done = deferred<void>();
    // The slot is taken until every task is queued, as on a busy caller's turn.
    const gate = deferred<void>();
    pool.run(() => gate.promise);
    for (let i = 0; i < 40; i++) {
      pool.run(() => {
        const until = performance.now() + 0.25;
        while (performance.now() < until) {
          // busy: a record being encoded
        }
        ran++;
        backlog.remove(1_000_000);
        if (ran === 40) done.resolve();
      });
      backlog.add(1_000_000);
    }
    gate.resolve();
    setImmediate(() => {
      beforeTurn = ran;
    });
    await done.promise;
    return beforeTurn ?? ran;
  }

  it('yields within its slice while the backlog is small, and works through a backlog over its bound before the loop turns', async () => {
    // 40 waiting records of ~1 MB against a 1 GiB bound: not behind, 1 ms slices.
    expect(await tasksBeforeTurn(new Backlog(1024 * 1024 * 1024))).toBeLessThan(40);
    // The same against a 4 MiB bound: over it until the last few ran, so no slice limit until then.
    expect(await tasksBeforeTurn(new Backlog(4 * 1024 * 1024))).toBeGreaterThanOrEqual(36);
  });
});
