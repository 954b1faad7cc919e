import { describe, expect, it } from 'vitest';
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
