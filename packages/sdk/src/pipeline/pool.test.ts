import { describe, expect, it } from 'vitest';
import { Backlog } from './backlog.js';
import { BEHIND_SLICE, Pool, SLICE } from './pool.js';

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

describe('Pool: slices are counted in records and bytes, not time', () => {
  /**
   * Queues `count` tasks of `bytes` each and lets them run; answers the most
   * that ran in one turn of the event loop (a `setImmediate` ticker counts
   * the turns). `work` runs in each task (a record's encode, or a GC pause
   * inside it).
   */
  async function mostInOneTurn(count: number, bytes: number, work = () => {}, backlog?: Backlog) {
    const pool = new Pool(1, () => {}, backlog);
    let turn = 0;
    const perTurn = new Map<number, number>();
    const done = deferred<void>();
    let ran = 0;
    const tick = () => {
      turn++;
      if (ran < count) setImmediate(tick);
    };
    setImmediate(tick);
    for (let i = 0; i < count; i++)
      pool.run(
        () => {
          work();
          perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
          if (++ran === count) done.resolve();
        },
        undefined,
        bytes,
      );
    await done.promise;
    return Math.max(...perTurn.values());
  }

  it('runs at most a slice of records per turn', async () => {
    expect(await mostInOneTurn(SLICE.records * 4, 0)).toBe(SLICE.records);
  });

  it('runs at most a slice of bytes per turn: large records make short slices', async () => {
    // Each record a quarter of the slice's bytes: four fit in a turn.
    expect(await mostInOneTurn(20, SLICE.bytes / 4)).toBe(4);
    // Behind (past a quarter of its bound, and staying there), the slice is four times as long.
    const behind = new Backlog(4 * BEHIND_SLICE.bytes);
    behind.add(2 * BEHIND_SLICE.bytes);
    expect(await mostInOneTurn(40, SLICE.bytes / 4, () => {}, behind)).toBe(16);
  });

  it('does not cut a slice short when a task takes long (a GC pause inside it)', async () => {
    // Five slow records are far under the slice's count and bytes: all run in one turn,
    // however long each took (a timed slice of 1 ms yielded after the first).
    let spins = 0;
    const pause = () => {
      const until = performance.now() + 2;
      while (performance.now() < until) spins++;
    };
    expect(await mostInOneTurn(5, 1_000, pause)).toBe(5);
    expect(spins).toBeGreaterThan(0);
  });
});
