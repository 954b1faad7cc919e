import type { RecoveryProblem } from './recover-segments.js';
import type { WarningLimiter } from '../diagnostics/index.js';

/** Turns what recovery (or a replay) found wrong in a segment into a rate-limited warning. */
export function reportRecoveryProblem(warnings: WarningLimiter, problem: RecoveryProblem): void {
  const { kind, path } = problem;
  switch (kind) {
    case 'torn-tail':
      warnings.report(kind, { bytesRemoved: problem.bytesRemoved }, (counts) => ({
        message: `Weft outbox: truncated ${counts.bytesRemoved} byte(s) of a record torn by a crash at the end of ${path}; every whole record before it is kept.`,
        details: { path, offset: problem.offset },
      }));
      return;
    case 'corrupt-segment':
      warnings.report(kind, { bytesSkipped: problem.bytesSkipped }, (counts) => ({
        message: `Weft outbox: ${path} has ${counts.bytesSkipped} unreadable byte(s) from offset ${problem.offset}; the records before them are replayed, the rest are lost.`,
        details: { path, offset: problem.offset },
      }));
      return;
    case 'unreadable-segment':
      warnings.report(kind, {}, () => ({
        message: `Weft outbox: ignoring ${path}: ${problem.reason}. It is left in place, neither replayed nor deleted.`,
        details: { path },
      }));
      return;
  }
}
