import { expect } from 'vitest';
import { BURST_CALLS } from './fault-table.js';
import type { FaultOutcome } from './run-fault.js';

/**
 * The assertions every fault shares: all 20,000 calls made and returned
 * their value, flush completed, the outbox drained, and the server holds
 * every call exactly once by id (query API, every page).
 */
export function expectNoLoss(outcome: FaultOutcome): void {
  const { calls, check, userErrors, pending, outboxLeft } = outcome;
  expect({
    calls,
    userErrors,
    flushPending: pending,
    outboxLeft,
    lost: check.missing.length,
    firstLost: check.missing.slice(0, 3),
    duplicates: check.duplicates.length,
    onServer: check.onServer,
  }).toEqual({
    calls: BURST_CALLS,
    userErrors: 0,
    flushPending: 0,
    outboxLeft: 0,
    lost: 0,
    firstLost: [],
    duplicates: 0,
    onServer: BURST_CALLS,
  });
}
