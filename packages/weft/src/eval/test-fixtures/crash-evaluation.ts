import type { Row } from '../../datasets/index.js';
import { Evaluation } from '../evaluation.js';
import { contains, exactMatch } from '../scorers.js';

/** 500 rows; the answer is wrong for every 9th row, so scores are not all equal. */
export const CRASH_ROWS = 500;

export function crashEvaluation(): Evaluation {
  const rows = Array.from({ length: CRASH_ROWS }, (_, i) => ({ i, expected: `answer ${i}` }));
  return new Evaluation({
    name: 'crash-resume',
    dataset: rows,
    scorers: [
      exactMatch(),
      contains({ column: 'expected' }),
      function length({ output }) {
        return String(output).length;
      },
    ],
  });
}

/** A deterministic model that takes `delayMs` per row and reports each completed invocation. */
export function crashModel(delayMs: number, onInvoked: (rowIndex: number) => void) {
  return async function slowModel(row: Row) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const i = row.i as number;
    onInvoked(i);
    return i % 9 === 0 ? `wrong ${i}` : `answer ${i}`;
  };
}
