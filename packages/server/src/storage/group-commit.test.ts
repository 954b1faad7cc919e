import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A flush that records what each call carried and finishes when the test says. */
function controlledFlush() {
  const groups: string[][] = [];
  const finishers: ((error?: Error) => void)[] = [];
  const flush = (entries: readonly string[]) =>
    new Promise<void>((resolve, reject) => {
      groups.push([...entries]);
      finishers.push((error) => (error === undefined ? resolve() : reject(error)));
    });
  const flushed = async (count: number) => {
    while (groups.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  return { groups, finishers, flush, flushed };
}

/** Whether a promise has settled once every callback already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('GroupCommit', () => {
  it('acknowledges a request only once the flush carrying it has finished, and carries the requests that waited meanwhile in one flush', async () => {
    const f = controlledFlush();
    const commit = new GroupCommit(f.flush, 100);
    const first = commit.submit('a', 1);
    await f.flushed(1);
    const second = commit.submit('b', 1);
    const third = commit.submit('c', 1);
    expect(await settled(first)).toBe(false);
    f.finishers[0]?.();
    await first;
    await f.flushed(2);
    expect(await settled(second)).toBe(false);
    expect(f.groups).toEqual([['a'], ['b', 'c']]);
    f.finishers[1]?.();
    await Promise.all([second, third]);
    await commit.idle();
  });

  it('rejects every request of a failed flush with its error, and flushes later requests anew', async () => {
    const f = controlledFlush();
    const commit = new GroupCommit(f.flush, 100);
    const first = commit.submit('a', 1);
    const second = commit.submit('b', 1);
    await f.flushed(1);
    const later = commit.submit('c', 1);
    f.finishers[0]?.(new Error('ClickHouse down'));
    await expect(first).rejects.toThrow('ClickHouse down');
    await expect(second).rejects.toThrow('ClickHouse down');
    await f.flushed(2);
    f.finishers[1]?.();
    await later;
    expect(f.groups).toEqual([['a', 'b'], ['c']]);
  });

  it('carries at most maxSize per flush, and a larger request alone', async () => {
    const f = controlledFlush();
    const commit = new GroupCommit(f.flush, 10);
    const all = [
      commit.submit('a', 4),
      commit.submit('b', 4),
      commit.submit('c', 4),
      commit.submit('big', 30),
    ];
    for (let i = 1; i <= 3; i++) {
      await f.flushed(i);
      f.finishers[i - 1]?.();
    }
    await Promise.all(all);
    expect(f.groups).toEqual([['a', 'b'], ['c'], ['big']]);
  });
});
