import { type ExceptionInfo, WeftError } from '@weft/protocol';

/** What a strict replay found different at the call where it diverged. */
export interface Divergence {
  /** The op of the live call that has no recorded counterpart. */
  readonly opName: string;
  /** Its step path in the recorded trace (`agent/step[12]/llm[0]`). */
  readonly path: string;
  /** The live call's id (in the replay's trace). */
  readonly callId: string;
  /** The recorded call it was expected to be (the next unmatched one of the same op there), if any. */
  readonly expectedCallId: string | undefined;
  /** The first input that differs (`messages[3].content`), when there was a recorded call to compare with. */
  readonly input: string | undefined;
  readonly expected: unknown;
  readonly actual: unknown;
}

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Thrown by the op call where a strict replay diverged from the record (and
 * recorded as that call's exception): the app asked for a call the recorded
 * trace does not have at that step, or with other inputs.
 */
export class ReplayDivergenceError extends WeftError {
  readonly divergence: Divergence;

  constructor(divergence: Divergence) {
    const where = `${divergence.opName} at step ${divergence.path}`;
    const what =
      divergence.expectedCallId === undefined
        ? 'the recorded trace has no call of this op left there'
        : divergence.input === undefined
          ? `its inputs differ from the recorded call ${divergence.expectedCallId}`
          : `input ${divergence.input === '' ? '(the whole inputs)' : divergence.input} is ${show(divergence.actual)}, the record has ${show(divergence.expected)} (recorded call ${divergence.expectedCallId})`;
    super({
      code: 'WEFT_REPLAY_DIVERGED',
      message: `Strict replay diverged: ${where}: ${what}. Make the step deterministic (see docs/replay.md), run its op live ({ live: ['${divergence.opName}'] }), or replay with { mode: 'live-after-divergence' }.`,
    });
    this.divergence = divergence;
  }
}

/** `replay` or `fork` was given a trace, or a fork step, that the record does not have. */
export class ReplayNotFoundError extends WeftError {
  constructor(message: string) {
    super({ code: 'WEFT_REPLAY_NOT_FOUND', message });
  }
}

/**
 * What a served call throws when its recorded call failed: the recorded
 * exception's name, message and stack, and its HTTP `status`, `code` and
 * `type` when it had them (an API error's). It is not an instance of the
 * original class.
 */
export class RecordedError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly type: string | undefined;

  constructor(info: ExceptionInfo) {
    super(info.message, info.cause === undefined ? undefined : { cause: new RecordedError(info.cause) });
    this.name = info.name;
    if (info.stack !== undefined) this.stack = info.stack;
    this.status = info.statusCode;
    this.code = info.code;
    this.type = info.type;
  }
}
