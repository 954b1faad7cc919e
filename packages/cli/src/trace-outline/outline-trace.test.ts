import type { Call, CallComplete } from '@weft/protocol';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { agentTrace } from '../../test/support/agent-trace.js';
import { estimateTokens } from './estimate-tokens.js';
import { outlineTrace } from './outline-trace.js';
import { shortId } from './compact-figures.js';

/** Calls as the server returns them, from the items the generator sends. */
function asCalls(items: readonly CallComplete[]): Call[] {
  return items.map((item) => ({
    project: 'p',
    id: item.id,
    traceId: item.traceId,
    parentId: item.parentId,
    opName: item.opName,
    displayName: item.displayName ?? null,
    startedAt: item.startedAt,
    endedAt: item.endedAt,
    status: item.summary?.status ?? 'success',
    inputs: item.inputs,
    output: item.output ?? null,
    exception: item.exception ?? null,
    summary: item.summary ?? null,
    attributes: {},
  }));
}

const big = agentTrace();
const bigCalls = asCalls(big.items);

describe('outlineTrace', () => {
  it('fits a 25,001-call trace in 8,000 tokens (o200k, gpt-tokenizer) and names the failing call and the slowest', () => {
    expect(bigCalls).toHaveLength(25_001);
    const outline = outlineTrace(bigCalls, { traceId: big.traceId, project: 'p', maxTokens: 8_000 });
    const real = countTokens(outline.text);
    expect(real).toBeLessThanOrEqual(8_000);
    expect(real).toBeLessThanOrEqual(outline.estimatedTokens); // the estimate errs high
    expect(outline.text).toContain(
      `#${shortId(big.failingId)} <- failing ! TimeoutError: refund-service upstream timed out after 3000 ms`,
    );
    expect(outline.text).toContain(`#${shortId(big.slowestId)} <- slowest`);
    expect(outline.text).toMatch(/^ {2}step x1000 \(999 ok, 1 ERR\) p50 /m);
    expect(outline.totalCalls).toBe(25_001);
    // It uses the budget it has: more than the kept part alone.
    expect(outline.estimatedTokens).toBeGreaterThan(4_000);
  });

  it.each([600, 1_000, 2_000, 4_000])(
    'stays within a budget of %i tokens and keeps the failing call',
    (maxTokens) => {
      const outline = outlineTrace(bigCalls, { traceId: big.traceId, project: 'p', maxTokens });
      expect(countTokens(outline.text)).toBeLessThanOrEqual(maxTokens);
      expect(outline.text).toContain(`#${shortId(big.failingId)} <- failing`);
    },
  );

  it('refuses a budget too small for the path to the failing call, saying what it needs', () => {
    expect(() => outlineTrace(bigCalls, { traceId: big.traceId, project: 'p', maxTokens: 100 })).toThrow(
      expect.objectContaining({ code: 'WEFT_OUTLINE_BUDGET', neededTokens: expect.any(Number) }),
    );
  });

  it('shows a small trace whole, values previewed', () => {
    const small = agentTrace({ steps: 3, toolsPerStep: 2 });
    const outline = outlineTrace(asCalls(small.items), {
      traceId: small.traceId,
      project: 'p',
      maxTokens: 8_000,
    });
    expect(outline.shownCalls).toBe(small.items.length);
    expect(outline.text).toContain('in: {"task":"refund order 123"}');
  });

  it('estimates above the real count for outline-like text', () => {
    const text = outlineTrace(bigCalls, { traceId: big.traceId, project: 'p', maxTokens: 8_000 }).text;
    for (const line of text.split('\n').filter((l) => l.length > 40)) {
      expect(estimateTokens(line)).toBeGreaterThanOrEqual(countTokens(line) - 2);
    }
  });
});
