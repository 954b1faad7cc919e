import { type CallRecord, namedInputs, type OpSpec, type ParamName } from '../calls/index.js';
import { materialize, sanitize, snapshotTape } from '../values/index.js';
import { inputsDigest } from './recorded-trace.js';

/** A live call's inputs as they will be recorded (their safe form), and their digest. */
export function liveInputs(call: CallRecord): { safe: unknown; digest: string } {
  const safe = sanitize(materialize(call.inputs)).value;
  return { safe, digest: inputsDigest(safe) };
}

/** Gives `call` the inputs of other arguments: `args` named, post-processed and snapshotted as at its start. */
export function setCallInputs(call: CallRecord, spec: OpSpec, args: readonly unknown[]): void {
  let inputs = namedInputs(spec.params, args);
  if (spec.options.postprocessInputs) inputs = spec.options.postprocessInputs(inputs);
  call.inputs = snapshotTape(inputs);
}

/**
 * The arguments an op was called with, from its recorded inputs record (the
 * inverse of `namedInputs`): each parameter's member in order, a rest
 * parameter spread, a lone destructured parameter given the whole record,
 * then any `arg<i>` members past the named ones.
 */
export function argsOfInputs(params: readonly ParamName[], inputs: unknown): unknown[] {
  const record = typeof inputs === 'object' && inputs !== null ? (inputs as Record<string, unknown>) : {};
  const first = params[0];
  if (params.length === 1 && first !== undefined && first.name === undefined && !first.rest) return [record];
  const args: unknown[] = [];
  for (let i = 0; ; i++) {
    const param = params[i];
    const key = param?.name ?? `arg${i}`;
    if (!Object.hasOwn(record, key)) {
      if (param === undefined) break;
      args.push(undefined);
      continue;
    }
    const value = record[key];
    if (param?.rest) {
      if (Array.isArray(value)) args.push(...value);
      break;
    }
    args.push(value);
  }
  // Trailing parameters the record does not have were not passed.
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return args;
}
