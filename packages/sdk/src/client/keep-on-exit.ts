import { writeSync } from 'node:fs';
import { type ExitParticipant, publishExit, registerForExit, unregisterForExit } from '../lifecycle/index.js';
import type { OutboxKeeper } from '../outbox/index.js';
import type { FlushBarrier } from '../pipeline/index.js';
import type { Batcher, RecordDelivery } from '../transport/index.js';
import type { ClientParts } from './client-parts.js';
import { flushClient } from './flush-client.js';

/** What a client holds that the process `exit` event may still keep. */
export interface ExitHoldings {
  project: string;
  barrier: Pick<FlushBarrier, 'outstanding'>;
  batcher: Pick<Batcher, 'heldOnExit'> | undefined;
  delivery: Pick<RecordDelivery, 'heldOnExit'>;
  keeper: Pick<OutboxKeeper, 'keepOnExit'> | undefined;
}

/**
 * Registers a client for process exit (with `handleExit`): its outstanding
 * units, a flush within `exitTimeoutMs`, and {@link keepOnExit} for the
 * `exit` event itself. Returns the function that unregisters it.
 */
export function joinExit(
  parts: ClientParts,
  project: string,
  { exitTimeoutMs, handleExit }: { exitTimeoutMs: number; handleExit: boolean },
): () => void {
  const { barrier, batcher, delivery, keeper } = parts;
  const participant: ExitParticipant = {
    get outstanding() {
      return barrier.outstanding;
    },
    flushForExit: () => flushClient(parts, exitTimeoutMs),
    keepOnExit: () => keepOnExit({ project, barrier, batcher, delivery, keeper }),
  };
  if (handleExit) registerForExit(participant);
  return () => unregisterForExit(participant);
}

/**
 * At the process `exit` event — `process.exit()` with records unsent, or the
 * end of a process whose exit flush hit its deadline — no later turn will
 * come: the outbox's writer, the retries and the pipeline never run again.
 * What is already encoded (the batcher's records, uploads in flight, appends
 * not yet written) is written to the outbox now, synchronously, and settled
 * as spilled; what the pipeline had not encoded yet is lost, and one warning
 * says how much of each. With nothing outstanding (a flush that completed)
 * it does nothing.
 *
 * The warning is written to stderr directly, in the form of a Node process
 * warning: `process.emitWarning` prints on a later tick, which never comes.
 */
export function keepOnExit({ project, barrier, batcher, delivery, keeper }: ExitHoldings): void {
  const held = batcher?.heldOnExit();
  const uploads = delivery.heldOnExit();
  let kept = 0;
  let dir: string | undefined;
  let failure: unknown;
  if (keeper !== undefined) {
    try {
      ({ kept, dir } = keeper.keepOnExit([...(held?.records ?? []), ...uploads.records]));
      held?.settle();
    } catch (error) {
      failure = error;
    }
  }
  // Units still outstanding are what the pipeline had not encoded, and uploads the outbox now holds.
  const lost = Math.max(0, barrier.outstanding - (failure === undefined && keeper ? uploads.kept : 0));
  if (kept === 0 && lost === 0) return;
  publishExit({ phase: 'exit', project, kept, lost, dir });
  const parts: string[] = [];
  if (kept > 0)
    parts.push(
      `${kept} record(s) kept in the outbox at ${dir} (the next process of the project replays them, or run \`weft outbox replay\`)`,
    );
  if (lost > 0)
    parts.push(
      `${lost} record(s) could not be kept: ${
        failure !== undefined
          ? `writing the outbox failed (${String(failure)})`
          : keeper === undefined
            ? 'the outbox is off'
            : 'they were not encoded yet'
      }`,
    );
  const message =
    `[weft ${project}] the process exited before its records were delivered: ${parts.join('; ')}. ` +
    'Await weft.flush() (or weft.shutdown()) before process.exit() to deliver them.';
  try {
    writeSync(2, `(node:${process.pid}) [WEFT_EXIT_UNSENT] WeftWarning: ${message}\n`);
  } catch {
    // stderr closed: nothing more to do at exit.
  }
}
