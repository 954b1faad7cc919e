import type { PriceOverrides } from '@weft/protocol';
import type { CallRecord } from '../calls/index.js';
import type { Warnings } from '../diagnostics/index.js';
import type { InFlight, RecordKind } from '../pipeline/index.js';
import type { Sampler } from '../sampling/index.js';
import type { OutputRules, SnapshotLimits } from '../values/index.js';

/** What the tracer hands calls to: the client's `Pipeline`. */
export interface CallSubmitter {
  submit(call: CallRecord, kind: RecordKind): void;
}

export interface TracerOptions {
  /** Identity of the owning client: a running call of another client is not a parent. */
  owner: object;
  inFlight: InFlight;
  /** Where a started or finished call goes: the client's `Pipeline` (O(1) on the caller's turn). */
  pipeline: CallSubmitter;
  warnings: Warnings;
  /** The snapshot limits in force (they gain `keep` once the client has published a value). */
  snapshot: { readonly limits: SnapshotLimits };
  /** The rules an output is written by on the caller's turn (see `snapshotOutput`); without them, every output is a tape. */
  output?: OutputRules | undefined;
  /** `weft.init({ prices })`: added to or overriding the built-in price table. */
  prices: PriceOverrides | undefined;
  /** `weft.init({ sampleRate, keep })`; `undefined` at rate 1, where nothing is sampled out. */
  sampler?: Sampler | undefined;
}
