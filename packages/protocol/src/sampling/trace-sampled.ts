import { createHash } from 'node:crypto';

/**
 * Whether an online evaluator named `ruleName` scores the calls of a trace: the first 52 bits of
 * SHA-256(rule name, NUL, trace id) as a fraction of 2⁵², below `rate`.
 * Deterministic (the same trace is in or out on every server, every
 * restart, every backfill), independent across rules (the name salts it),
 * and a trace is scored whole or not at all.
 */
export function traceSampled(ruleName: string, traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const digest = createHash('sha256').update(ruleName).update('\u0000').update(traceId).digest();
  const fraction = (digest.readUIntBE(0, 6) * 16 + ((digest[6] as number) >> 4)) / 2 ** 52;
  return fraction < rate;
}
