import { describe, expect, it } from 'vitest';
import { Pool } from './pool.js';

/** A promise with its resolver, as a digest another task will produce. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

// The pool's one rule (see the INVARIANT on `Pool`): a task never awaits what
// another pool task produces; it chains a continuation and returns its slot.
describe('Pool: no slot waits on another slot', () => {
  it('one slot, 10,000 parents each needing a digest a task queued after it produces: all finish when chained', async () => {
    const pool = new Pool(1, (error) => {
      throw error;
    });
    const n = 10_000;
    const finished: number[] = [];
    const done = deferred<void>();
    for (let i = 0; i < n; i++) {
      const digest = deferred<string>();
      // The parent: its digest is pending, so it chains the finalize and returns at once.
      pool.run(() => {
        digest.promise.then((d) => {
          pool.run(() => {
            finished.push(i);
            expect(d).toBe(`d${i}`);
            if (finished.length === n) done.resolve();
          });
        });
      });
      // The child that produces the digest, queued behind its parent.
      pool.run(() => digest.resolve(`d${i}`));
    }
    await done.promise;
    expect(finished).toHaveLength(n);
    expect(pool.running).toBe(0);
    expect(pool.waiting).toBe(0);
  });

  it('one slot whose task awaits a digest queued behind it never makes progress (why the rule exists)', async () => {
    const pool = new Pool(1, () => {});
    const digest = deferred<string>();
    let parentDone = false;
    let childRan = false;
    pool.run(async () => {
      await digest.promise; // breaks the rule: holds the only slot
      parentDone = true;
    });
    pool.run(() => {
      childRan = true;
      digest.resolve('d');
    });
    for (let i = 0; i < 20; i++) await turn();
    expect({ parentDone, childRan, running: pool.running, waiting: pool.waiting }).toEqual({
      parentDone: false,
      childRan: false,
      running: 1,
      waiting: 1,
    });
    digest.resolve('released by the test'); // let the slot go so nothing is left pending
    for (let i = 0; i < 5 && pool.running > 0; i++) await turn();
    expect(childRan).toBe(true);
  });
});
