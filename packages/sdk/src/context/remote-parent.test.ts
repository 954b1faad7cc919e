import { callIdOfSpan, traceIdOfOtel } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { parseTraceparent, traceparentOf } from './remote-parent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const VALID = `00-${TRACE}-${SPAN}-01`;

describe('parseTraceparent', () => {
  it('reads a W3C traceparent as the Weft trace and parent call ids', () => {
    expect(parseTraceparent(VALID)).toEqual({
      traceId: traceIdOfOtel(TRACE),
      parentId: callIdOfSpan(TRACE, SPAN),
    });
  });

  it('reads the first four fields of a later version and ignores what follows', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-00-more`)).toMatchObject({ traceId: traceIdOfOtel(TRACE) });
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['an object', { traceparent: VALID }],
    ['an empty string', ''],
    ['upper-case hex', VALID.toUpperCase()],
    ['version ff', VALID.replace(/^00/, 'ff')],
    ['extra fields on version 00', `${VALID}-extra`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['an all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['whitespace around it', ` ${VALID}`],
    ['a huge string', `${VALID}${'-x'.repeat(10_000)}`],
  ])('ignores %s', (_case, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('keeps a valid tracestate and drops a malformed one without losing the parent', () => {
    expect(parseTraceparent(VALID, 'congo=t61rcWkgMzE, rojo=00f067aa0ba902b7')?.traceState).toBe(
      'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    );
    for (const bad of [42, '', 'no-equals-sign', `a=${'x'.repeat(600)}`, 'UPPER=1', 'a=b,=c']) {
      const parent = parseTraceparent(VALID, bad);
      expect(parent).toBeDefined();
      expect(parent?.traceState).toBeUndefined();
    }
  });

  it('round-trips with traceparentOf for a Weft call', () => {
    const call = { traceId: traceIdOfOtel(TRACE), id: callIdOfSpan(TRACE, SPAN) };
    expect(traceparentOf(call)).toBe(VALID);
    expect(parseTraceparent(traceparentOf(call))).toEqual({ traceId: call.traceId, parentId: call.id });
  });
});
