import { WeftError } from '@weft/protocol';

/** One row that is not a plain object. */
export interface InvalidRow {
  /** 0-based index into the array given. */
  index: number;
  /** What it is instead (`array`, `null`, `string`, `Date instance`, …). */
  got: string;
}

/** Rows given as an array must each be a plain object (column name → value). */
export class InvalidDatasetRowsError extends WeftError {
  /** Every offending row, in order. */
  readonly rows: readonly InvalidRow[];

  constructor(rows: readonly InvalidRow[]) {
    const listed = rows
      .slice(0, 5)
      .map((r) => `rows[${r.index}] is ${r.got}`)
      .join('; ');
    super({
      code: 'WEFT_INVALID_DATASET_ROWS',
      message: `Dataset rows must be plain objects (column name → value), but ${listed}${rows.length > 5 ? `; and ${rows.length - 5} more` : ''}.`,
    });
    this.rows = rows;
  }
}
