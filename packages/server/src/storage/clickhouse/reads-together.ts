import type { RollupLevel } from '../rollup/index.js';

/**
 * Gathers the rollup reads made in one turn that share everything but level
 * and ranges (a metrics query's hour rows and its edge minutes) so they go
 * to ClickHouse as ONE statement: on chDB a statement's parsing and planning
 * cost about as much as reading a panel's rows (10 M calls). Reads of the
 * same level never share a statement (their ranges may overlap, and a row
 * answers one read): a second one starts another.
 */
export class ReadsTogether<Read extends { level: RollupLevel }, Row> {
  readonly #key: (read: Read) => string;
  readonly #run: (reads: readonly Read[]) => Promise<Row[][]>;
  /** Reads of this turn waiting to be sent together, by what they share. */
  readonly #waiting = new Map<string, { reads: Read[]; answer: Promise<Row[][]> }>();

  /**
   * @param key - What reads sent together share (reads of equal keys may go together).
   * @param run - Makes the statement for reads of one key and distinct levels: each read's rows apart, in order.
   */
  constructor(key: (read: Read) => string, run: (reads: readonly Read[]) => Promise<Row[][]>) {
    this.#key = key;
    this.#run = run;
  }

  /** `read`'s rows, read together with the others of this turn that can share its statement. */
  read(read: Read): Promise<Row[]> {
    const key = this.#key(read);
    let pending = this.#waiting.get(key);
    if (pending === undefined || pending.reads.some((r) => r.level === read.level)) {
      const reads: Read[] = [];
      const answer = Promise.resolve().then(() => {
        if (this.#waiting.get(key) === pending) this.#waiting.delete(key);
        return this.#run(reads);
      });
      pending = { reads, answer };
      this.#waiting.set(key, pending);
    }
    const index = pending.reads.push(read) - 1;
    return pending.answer.then((answers) => answers[index] as Row[]);
  }
}

/**
 * A value chosen by the read a row answers: `multiIf(own₀, values₀, …,
 * valuesₙ)` over each read's own conditions (the last needs none: the WHERE
 * keeps only rows of some read), or the one value of a lone read.
 */
export function perRead(owns: readonly string[], values: readonly string[]): string {
  return values.length === 1
    ? (values[0] as string)
    : `multiIf(${owns
        .slice(0, -1)
        .map((own, i) => `${own}, ${values[i]}`)
        .join(', ')}, ${values.at(-1)})`;
}
