import {
  type CallItem,
  type CallSummary,
  type ExceptionInfo,
  latencyIsImplied,
  statusIsImplied,
} from '@weft/protocol';
import type { CallRecord } from '../calls/index.js';

/**
 * One record's values: the snapshot's parts (where `inputs` and `output` may
 * be `SnapshotTape`s), or what the walk made of them (safe, redacted,
 * ref-replaced).
 */
export interface WalkedParts {
  inputs?: unknown;
  attributes?: Record<string, unknown> | undefined;
  output?: unknown;
}

export type RecordKind = 'start' | 'end' | 'complete';

/** The values a record of `kind` carries: a start record the inputs, an end record the output, a complete record both. */
export function recordParts({ call, kind }: { call: CallRecord; kind: RecordKind }): WalkedParts {
  return kind === 'end'
    ? { output: call.output }
    : kind === 'start'
      ? { inputs: call.inputs, attributes: call.attributes }
      : { inputs: call.inputs, attributes: call.attributes, output: call.output };
}

/** A record's free text, already redacted like its values (see `values/free-text.ts`). */
export interface RecordText {
  displayName: string | undefined;
  exception: ExceptionInfo | undefined;
}

/** Builds the one protocol item of a record from the call, its walked parts and its redacted free text. */
export function callItem(kind: RecordKind, call: CallRecord, parts: WalkedParts, text: RecordText): CallItem {
  const { exception } = text;
  if (kind === 'end') {
    return {
      type: 'end',
      id: call.id,
      endedAt: call.endedAt ?? call.startedAt,
      output: parts.output,
      exception,
      summary: sentSummary(call.summary, exception, false),
    };
  }
  // One object literal for both kinds (no spread of a shared `start` object).
  // A start record's end fields are undefined, which the encoders leave out.
  const complete = kind === 'complete';
  return {
    type: kind,
    id: call.id,
    traceId: call.traceId,
    parentId: call.parentId,
    opName: call.opName,
    displayName: text.displayName,
    startedAt: call.startedAt,
    inputs: (parts.inputs ?? {}) as Record<string, unknown>,
    attributes: parts.attributes,
    sessionId: call.sessionId,
    endedAt: complete ? (call.endedAt ?? call.startedAt) : undefined,
    output: complete ? parts.output : undefined,
    exception: complete ? exception : undefined,
    summary: complete ? sentSummary(call.summary, exception, latencyIsImpliedBy(call)) : undefined,
  } as CallItem;
}

/** Whether a finished call's `latencyMs` is `endedAt − startedAt` (a complete record may leave it out). */
function latencyIsImpliedBy(call: CallRecord): boolean {
  const { summary } = call;
  return summary !== undefined && latencyIsImplied(call.startedAt, call.endedAt ?? call.startedAt, summary);
}

/**
 * A complete or end record's summary as sent: without `status` where the
 * record's exception implies it (protocol 4), and without `latencyMs` where
 * `latencyImplied` (a complete record, protocol 3). The server puts both back
 * at ingest (`fillImpliedSummary`); older servers get them back from the
 * SDK's transcoding.
 */
function sentSummary(
  summary: CallSummary | undefined,
  exception: ExceptionInfo | undefined,
  latencyImplied: boolean,
): CallSummary | undefined {
  if (summary === undefined) return undefined;
  const statusImplied = statusIsImplied(exception, summary);
  if (!statusImplied && !latencyImplied) return summary;
  const sent = { ...summary };
  if (statusImplied) delete sent.status;
  if (latencyImplied) delete sent.latencyMs;
  return sent;
}

/** The marker left where part of a call could not be processed, so the rest of the call is still sent. */
export function failureMarker(stage: string, error: unknown): Record<string, unknown> {
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = 'unknown error';
  }
  return { _weft: 'error', stage, error: message.slice(0, 1_000) };
}
