import type { Row } from '../datasets/index.js';
import { WeftObject } from '../objects/index.js';

/** What a model receives besides the row. */
export interface PredictContext {
  rowIndex: number;
  trial: number;
  /**
   * This row's signal, aborted (with the run's reason) when the run is
   * cancelled; pass it to your HTTP client to stop early. A new one per row,
   * released when the row ends.
   */
  signal: AbortSignal;
}

/**
 * A model under evaluation: a versioned object whose own fields are its
 * settings (published as an object version; changing one makes a new
 * version) with a `predict` method. The runner traces `predict` as an op
 * named `<name>.predict`, so do not wrap it in `weft.op` yourself.
 *
 * @example
 * class Echo extends weft.Model {
 *   prefix = '> ';
 *   async predict(row: { question: string }) { return this.prefix + row.question; }
 * }
 */
export abstract class Model extends WeftObject {
  abstract predict(row: Row, context: PredictContext): unknown;

  /** True for a {@link Model} (any object with a `predict` method that extends `WeftObject`). */
  static isModel(value: unknown): value is Model {
    return WeftObject.isInstance(value) && typeof (value as { predict?: unknown }).predict === 'function';
  }
}

/** A model, or a plain function of a row. */
export type ModelLike = Model | ((row: Row, context: PredictContext) => unknown);
