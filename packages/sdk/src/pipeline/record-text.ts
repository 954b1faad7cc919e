import type { ExceptionInfo } from '@weft/protocol';
import { type CallRecord, dropValues, exceptionInfo } from '../calls/index.js';
import {
  freeTextRedaction,
  isNoRedaction,
  materialize,
  redactedStringsOf,
  redactException,
  redactText,
  type SanitizeOptions,
} from '../values/index.js';
import type { RecordKind, RecordText } from './call-item.js';

/** What a record's free text is computed from, and what it caches between the fast path and the walk. */
export interface TextSource {
  readonly call: CallRecord;
  readonly kind: RecordKind;
  exception?: ExceptionInfo;
  /** For a failed call's end record: strings redaction removes from its inputs, which its exception may quote. */
  inputSecrets?: readonly string[];
}

export const NO_SECRETS: readonly string[] = [];

/** The exception a finished, failed call records (computed once per record: the fast path and the walk share it). */
function recordException(job: TextSource): ExceptionInfo | undefined {
  if (job.kind === 'start' || !job.call.failed) return undefined;
  if (job.exception === undefined) job.exception = exceptionInfo(job.call.error);
  return job.exception;
}

/**
 * The record's display name and exception, redacted by the same keys and
 * function as its values: the secrets its walk removed (plus, for an end
 * record of a failed call, those of its inputs) are scrubbed from them.
 */
export function recordText(
  job: TextSource,
  options: SanitizeOptions,
  walkSecrets: readonly string[],
): RecordText & { secrets: readonly string[] } {
  const { call, kind } = job;
  const exception = recordException(job);
  // The common case (nothing redacted, no function): no work, no allocation beyond the result.
  if (
    walkSecrets.length === 0 &&
    options.redact === undefined &&
    (kind !== 'end' || exception === undefined)
  ) {
    return { displayName: call.displayName, exception, secrets: NO_SECRETS };
  }
  let secrets = walkSecrets;
  if (kind === 'end' && exception !== undefined) {
    job.inputSecrets ??= redactedStringsOf(materialize(call.inputs), options);
    if (job.inputSecrets.length > 0) secrets = [...walkSecrets, ...job.inputSecrets];
  }
  const r = freeTextRedaction(secrets, options);
  if (isNoRedaction(r)) return { displayName: call.displayName, exception, secrets: r.secrets };
  const displayName =
    call.displayName === undefined
      ? undefined
      : redactText(r, 'displayName', call.displayName, ['displayName']);
  return {
    displayName,
    exception: exception === undefined ? undefined : redactException(r, exception),
    secrets: r.secrets,
  };
}

/**
 * Drops a call's values once its last record is encoded (a start record
 * leaves them: the end record reads them, and a failed call's exception is
 * redacted by its inputs' secrets).
 *
 * Why: a call that ran across many turns (an agent step over its model
 * calls, 64 of them at once in a burst) has been promoted to the old
 * generation by the time it ends, and the output snapshot it then points to
 * is young. That old-to-new reference keeps the snapshot and its strings
 * alive through every minor GC until the next full GC, even once the call
 * itself is garbage, so each of them is copied and then promoted. In a burst
 * of 80 KB agent steps, dropping them took what the minor GCs promoted from
 * about 506 MB to about 370 MB (untraced: about 170 MB), with the backlog held
 * small (bench/RESULTS.md, "80 KB: what the GC promotes").
 */
export function releaseValues(call: CallRecord, kind: RecordKind): void {
  if (kind !== 'start') dropValues(call);
}
