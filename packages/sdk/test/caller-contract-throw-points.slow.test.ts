import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, resetWeft } from '../src/testing/index.js';
import { memorySink } from './support/memory-sink.js';

// The caller contract's property run (300 random values, throw points and
// depths, ~20 s): slow, so the fast loop leaves it out. The rest of the
// contract is in caller-contract.test.ts.

afterEach(async () => {
  await resetWeft();
});

type Outcome = { kind: 'return'; value: unknown } | { kind: 'throw'; error: unknown };

function capture(run: () => unknown): Outcome {
  try {
    return { kind: 'return', value: run() };
  } catch (error) {
    return { kind: 'throw', error };
  }
}

async function captureAsync(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { kind: 'return', value: await run() };
  } catch (error) {
    return { kind: 'throw', error };
  }
}

/** A stack of `depth` nested functions; the one at `throwAt` (if any) throws `thrown`, the innermost returns `value`. */
function nest(
  depth: number,
  throwAt: number,
  value: unknown,
  thrown: unknown,
  wrap: <F extends (...a: never[]) => unknown>(f: F) => F,
) {
  let fn: (x: unknown) => unknown = () => value;
  for (let level = depth - 1; level >= 0; level--) {
    const inner = fn;
    fn = wrap((x: unknown) => {
      if (level === throwAt) throw thrown;
      return inner(x);
    });
  }
  return fn;
}

function nestAsync(
  depth: number,
  throwAt: number,
  value: unknown,
  thrown: unknown,
  wrap: <F extends (...a: never[]) => unknown>(f: F) => F,
) {
  let fn: (x: unknown) => Promise<unknown> = async () => value;
  for (let level = depth - 1; level >= 0; level--) {
    const inner = fn;
    fn = wrap(async (x: unknown) => {
      await null;
      if (level === throwAt) throw thrown;
      return inner(x);
    });
  }
  return fn;
}

describe('the caller contract', () => {
  it('returns and throws exactly what the function does, sync and async, at random throw points', async () => {
    const client = createClient({ project: 'contract', outbox: false, handleExit: false }, () =>
      memorySink(),
    );
    const identity = <F>(f: F) => f;
    await fc.assert(
      fc.asyncProperty(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withDate: true,
          withNullPrototype: true,
        }),
        fc.anything(),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: -1, max: 5 }),
        async (value, thrownValue, depth, throwAt) => {
          // Thrown values: Errors and arbitrary values, compared by identity.
          const thrown = throwAt % 2 === 0 ? new Error('boom') : thrownValue;
          const plain = capture(() => nest(depth, throwAt, value, thrown, identity)(1));
          const traced = capture(() => nest(depth, throwAt, value, thrown, client.op)(1));
          expect(traced.kind).toBe(plain.kind);
          if (plain.kind === 'return')
            expect(Object.is((traced as typeof plain).value, plain.value)).toBe(true);
          else expect(Object.is((traced as { error: unknown }).error, plain.error)).toBe(true);

          const plainAsync = await captureAsync(() => nestAsync(depth, throwAt, value, thrown, identity)(1));
          const tracedAsync = await captureAsync(() =>
            nestAsync(depth, throwAt, value, thrown, client.op)(1),
          );
          expect(tracedAsync.kind).toBe(plainAsync.kind);
          if (plainAsync.kind === 'return')
            expect(Object.is((tracedAsync as typeof plainAsync).value, plainAsync.value)).toBe(true);
          else expect(Object.is((tracedAsync as { error: unknown }).error, plainAsync.error)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    const flushed = await client.flush();
    expect(flushed.failed).toBe(0);
    expect(flushed.pending).toBe(0);
  });
});
