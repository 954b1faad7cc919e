import type { ModelUsage } from '@weft/protocol';
import { addUsage, usageOf } from './usage.js';
import { snapshot } from '../values/index.js';

/**
 * What one chunk is to the call: `'output'` carries generated output (the
 * first such chunk sets `summary.timeToFirstTokenMs`); `'other'` is passed to
 * the caller but carries none (a role header, a usage-only event);
 * `'hidden'` is NOT passed to the caller: a chunk only the wrapper asked the
 * provider for (e.g. OpenAI's usage chunk when the wrapper, not the user,
 * set `stream_options.include_usage`).
 */
export type ChunkKind = 'output' | 'other' | 'hidden';

/**
 * Adds up a streamed result as it is read, on the caller's turn, so each
 * `add` must be O(1) in the number of chunks read so far (keep parts in
 * arrays, join once in `output()`). One accumulator per call.
 */
export interface StreamAccumulator {
  /** Reads one chunk; may remove fields the wrapper added to what the caller sees. */
  add(chunk: unknown): ChunkKind;
  /** What the stream adds up to, recorded as the call's output (also for a failed or abandoned stream: what was read). */
  output(): unknown;
  /** The call's own token usage per model, when the stream reported it. */
  usage(): Record<string, ModelUsage> | undefined;
}

/**
 * The accumulator of a plain traced stream (a generator, an iterable an op
 * returns): each chunk is snapshotted and kept; the output is the joined
 * text when every chunk is a string, else the list; usage is summed over
 * chunks that carry it.
 */
export class ChunkList implements StreamAccumulator {
  readonly #chunks: unknown[] = [];
  #usage: Record<string, ModelUsage> | undefined;

  add(chunk: unknown): ChunkKind {
    this.#chunks.push(snapshot(chunk));
    this.#usage = addUsage(this.#usage, usageOf(chunk));
    return 'output';
  }

  output(): unknown {
    const chunks = this.#chunks;
    return chunks.length > 0 && chunks.every((c) => typeof c === 'string') ? chunks.join('') : chunks;
  }

  usage(): Record<string, ModelUsage> | undefined {
    return this.#usage;
  }
}
