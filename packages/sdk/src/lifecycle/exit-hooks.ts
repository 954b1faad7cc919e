import { channel } from 'node:diagnostics_channel';
import type { FlushResult } from './flush-result.js';

/**
 * diagnostics_channel where exit handling announces itself: `{ phase:
 * 'flush-start' | 'flush-done', reason, results? }`, and at the process
 * `exit` event `{ phase: 'exit', project, kept, lost, dir }` for each client
 * that still had work.
 */
export const EXIT_CHANNEL = 'weft:exit';
const exitChannel = channel(EXIT_CHANNEL);

/** What exit handling needs of a client. */
export interface ExitParticipant {
  /** Units not yet settled; 0 means nothing to flush. */
  readonly outstanding: number;
  /** A flush whose deadline timer is ref'd: it keeps the process alive at most until then. */
  flushForExit(): Promise<FlushResult>;
  /**
   * At the process `exit` event (after `process.exit()`, or a deadline that
   * passed): no later turn will come, so keep what can be kept now,
   * synchronously, and say what could not. Must not throw.
   */
  keepOnExit(): void;
}

const participants = new Set<ExitParticipant>();
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
let exiting: Promise<void> | undefined;
/** After a `beforeExit` flush that hit its deadline, later `beforeExit`s let the process end. */
let gaveUp = false;

/** Publishes `message` on the exit channel (synchronously: subscribers hear it even at `exit`). */
export function publishExit(message: Record<string, unknown>): void {
  publish(message);
}

function publish(message: Record<string, unknown>): void {
  if (exitChannel.hasSubscribers) exitChannel.publish(message);
}

async function flushAll(reason: string): Promise<FlushResult[]> {
  publish({ phase: 'flush-start', reason });
  const results = await Promise.all([...participants].map((p) => p.flushForExit()));
  publish({ phase: 'flush-done', reason, results });
  return results;
}

/**
 * `beforeExit`: the loop is empty, so flush what is left. The flush schedules
 * I/O, so `beforeExit` fires again afterwards; it then finds nothing left
 * (or gives up after a deadline once) and the process ends normally.
 */
function onBeforeExit(): void {
  if (exiting !== undefined || gaveUp) return;
  let work = 0;
  for (const p of participants) work += p.outstanding;
  if (work === 0) return;
  exiting = flushAll('beforeExit').then(
    (results) => {
      exiting = undefined;
      if (results.some((r) => r.pending > 0)) gaveUp = true;
    },
    () => {
      exiting = undefined;
      gaveUp = true;
    },
  );
}

/**
 * SIGINT/SIGTERM: flush with the deadline, then restore the default
 * behaviour: remove our listeners and re-raise the signal when nobody else
 * listens for it. Never `process.exit`.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (exiting !== undefined) return;
  exiting = flushAll(signal)
    .catch(() => undefined)
    .then(() => {
      uninstall();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
}

/**
 * `exit`: the event loop will not turn again (`process.exit()`, or the end
 * after a flush that hit its deadline). Each client keeps synchronously what
 * is already encoded and says what it could not keep.
 */
function onExit(): void {
  for (const participant of participants) {
    try {
      participant.keepOnExit();
    } catch {
      // Must not throw from an exit listener: a client reports its own failures.
    }
  }
}

let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  process.on('beforeExit', onBeforeExit);
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.removeListener('beforeExit', onBeforeExit);
  process.removeListener('exit', onExit);
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

/** Adds a client to exit handling (installing the process listeners with the first). */
export function registerForExit(participant: ExitParticipant): void {
  participants.add(participant);
  install();
}

/** Removes a client; the last one removes the process listeners. */
export function unregisterForExit(participant: ExitParticipant): void {
  participants.delete(participant);
  if (participants.size === 0) uninstall();
}
