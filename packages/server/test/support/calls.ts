import type { CallComplete, CallEnd, CallStart } from '@weft/protocol';

/** A deterministic UUID-shaped call id for index `n` (v7-like, sortable by n). */
export function callIdOf(n: number, salt = 0): string {
  const hex = n.toString(16).padStart(12, '0');
  const s = salt.toString(16).padStart(4, '0');
  return `0190a5f0-${s}-7000-8000-${hex}`;
}

export function startOf(n: number, overrides: Partial<CallStart> = {}): CallStart {
  return {
    type: 'start',
    id: callIdOf(n),
    traceId: callIdOf(n),
    parentId: null,
    opName: 'op',
    startedAt: 1_700_000_000_000 + n,
    inputs: { n },
    ...overrides,
  };
}

export function endOf(n: number, overrides: Partial<CallEnd> = {}): CallEnd {
  return {
    type: 'end',
    id: callIdOf(n),
    endedAt: 1_700_000_000_000 + n + 10,
    output: { doubled: n * 2 },
    ...overrides,
  };
}

export function completeOf(n: number, overrides: Partial<CallComplete> = {}): CallComplete {
  const { type: _s, ...start } = startOf(n);
  const { type: _e, ...end } = endOf(n);
  return { type: 'complete', ...start, ...end, ...overrides };
}
