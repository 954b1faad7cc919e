import { describe, expect, it } from 'vitest';
import { FlushBarrier } from './flush-barrier.js';

const settledNow = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('FlushBarrier', () => {
  it('resolves at once when nothing is outstanding', async () => {
    const barrier = new FlushBarrier();
    expect(await settledNow(barrier.whenSettled(barrier.cut()))).toBe(true);
  });

  it('waits for units of its epoch and earlier ones, not for later ones', async () => {
    const barrier = new FlushBarrier();
    const a = barrier.register();
    const epoch = barrier.cut();
    const later = barrier.register(); // arrives after the flush: must not delay it
    const waiting = barrier.whenSettled(epoch);
    expect(await settledNow(waiting)).toBe(false);
    barrier.settle(a, 'sent');
    expect(await settledNow(waiting)).toBe(true);
    expect(barrier.outstanding).toBe(1);
    barrier.settle(later, 'sent');
  });

  it('counts continuations registered in a parent epoch before the parent settles', async () => {
    const barrier = new FlushBarrier();
    const call = barrier.register();
    const epoch = barrier.cut();
    const waiting = barrier.whenSettled(epoch);
    const object = barrier.register(call); // spawned by the call after the cut, same epoch
    barrier.settle(call, 'sent');
    expect(await settledNow(waiting)).toBe(false);
    barrier.settle(object, 'sent', 'object');
    expect(await settledNow(waiting)).toBe(true);
    expect(barrier.report(epoch)).toEqual({
      sent: 1,
      spilled: 0,
      failed: 0,
      pending: 0,
      objects: 1,
      objectsFailed: 0,
    });
  });

  it('reports each outcome to exactly one flush and keeps no settled epochs', () => {
    const barrier = new FlushBarrier();
    for (let i = 0; i < 3; i++) barrier.settle(barrier.register(), i === 0 ? 'failed' : 'spilled');
    const first = barrier.cut();
    barrier.settle(barrier.register(), 'sent');
    const second = barrier.cut();
    expect(barrier.report(second)).toMatchObject({ sent: 1, spilled: 2, failed: 1 });
    expect(barrier.report(first)).toMatchObject({ sent: 0, spilled: 0, failed: 0 });
  });

  it('reports what is still pending', () => {
    const barrier = new FlushBarrier();
    barrier.register();
    barrier.register();
    expect(barrier.report(barrier.cut()).pending).toBe(2);
  });
});
