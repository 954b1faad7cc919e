import type { RecoveryProblem } from './recover-segments.js';
import type { WarningLimiter } from '../diagnostics/index.js';
import { DAMAGED_SUFFIX } from './segment-file.js';

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
        message: `Weft outbox: ${path} has ${counts.bytesSkipped} unreadable byte(s) in ${problem.ranges} place(s), the first at offset ${problem.offset}; they are skipped and every valid record around them is kept. Once replayed, the file is set aside (${DAMAGED_SUFFIX}), not deleted.`,
        details: { path, offset: problem.offset, ranges: problem.ranges },
      }));
      return;
    case 'set-aside':
      warnings.report(kind, { bytesSkipped: problem.bytesSkipped }, () => ({
        message: `Weft outbox: ${path} had unreadable bytes; its valid records are replayed and the file is kept as ${problem.keptAs} for inspection (delete it when done).`,
        details: { path, keptAs: problem.keptAs },
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
