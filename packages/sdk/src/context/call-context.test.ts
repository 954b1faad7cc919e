import { describe, expect, it } from 'vitest';
import { callContext, type ContextFrame, outsideCalls } from './call-context.js';

const frame: ContextFrame = { call: undefined, attributes: { user: 'u1' } };

describe('outsideCalls', () => {
  it('runs work, and what it schedules, with no call frame; the caller keeps its frame', async () => {
    const seen = await callContext.run(frame, async () => {
      const inside = outsideCalls(() => callContext.getStore());
      const scheduled = await outsideCalls(
        () =>
          new Promise<ContextFrame | undefined>((resolve) =>
            setImmediate(() => resolve(callContext.getStore())),
          ),
      );
      const timer = await outsideCalls(
        () =>
          new Promise<ContextFrame | undefined>((resolve) =>
            setTimeout(() => resolve(callContext.getStore()), 0),
          ),
      );
      return { inside, scheduled, timer, after: callContext.getStore() };
    });
    expect(seen).toEqual({ inside: undefined, scheduled: undefined, timer: undefined, after: frame });
  });

  it('returns what the work returns and lets what it throws through, frame restored', () => {
    callContext.run(frame, () => {
      expect(outsideCalls(() => 42)).toBe(42);
      expect(() =>
        outsideCalls(() => {
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(callContext.getStore()).toBe(frame);
    });
  });
});
