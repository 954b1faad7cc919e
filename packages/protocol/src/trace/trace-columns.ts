import { WeftError } from '../errors/index.js';

/**
 * The fields of a light call that trace columns hold: `Call` (from
 * `@weft/protocol`) has them all; declared here so this subpath needs no zod.
 */
export interface TraceColumnsCall {
  project: string;
  id: string;
  traceId: string;
  parentId: string | null;
  opName: string;
  displayName: string | null;
  startedAt: number;
  endedAt: number | null;
  status: 'running' | 'success' | 'error';
  inputs: Record<string, unknown>;
  output: unknown;
  exception: unknown;
  summary: unknown;
  attributes: Record<string, unknown>;
  sessionId?: string | null | undefined;
}

/** `traceColumnsResponse` (in `@weft/protocol`), declared here so this subpath needs no zod. */
export interface TraceColumns {
  project: string;
  traceId: string;
  truncated: boolean;
  ids: string[];
  parents: (number | string | null)[];
  startedAt: number[];
  endedAt: (number | null)[];
  status: TraceColumnsCall['status'][];
  opName: number[];
  displayName: (number | null)[];
  sessionId: (number | null)[];
  attributes: number[];
  summary: (number | null)[];
  exception: (number | null)[];
  strings: string[];
  values: unknown[];
}

/** Each distinct item once, in order of first use; `add` gives an item's index. */
class Table<K> {
  readonly items: unknown[] = [];
  readonly #index = new Map<K, number>();

  add(key: K, item: unknown = key): number {
    let at = this.#index.get(key);
    if (at === undefined) {
      at = this.items.push(item) - 1;
      this.#index.set(key, at);
    }
    return at;
  }
}

/**
 * Values by their JSON text, so equal values share an index whichever
 * object holds them; an object seen before skips the JSON (a storage engine
 * that decodes each distinct stored value once hands the same object to many
 * calls).
 */
class ValueTable {
  readonly #byText = new Table<string>();
  readonly #byObject = new Map<object, number>();

  get items(): unknown[] {
    return this.#byText.items;
  }

  add(value: unknown): number {
    if (typeof value !== 'object' || value === null) return this.#byText.add(JSON.stringify(value), value);
    let at = this.#byObject.get(value);
    if (at === undefined) {
      at = this.#byText.add(JSON.stringify(value), value);
      this.#byObject.set(value, at);
    }
    return at;
  }
}

/**
 * The light calls of one trace (as `traceCallsResponse` holds them, in that
 * order) as a `traceColumnsResponse`. Deterministic: the same calls give the
 * same answer, whatever objects hold their values.
 */
export function traceColumnsOf(
  project: string,
  traceId: string,
  calls: readonly TraceColumnsCall[],
  truncated: boolean,
): TraceColumns {
  const strings = new Table<string>();
  const values = new ValueTable();
  const position = new Map<string, number>();
  for (let i = 0; i < calls.length; i++) position.set((calls[i] as TraceColumnsCall).id, i);
  const n = calls.length;
  const out: TraceColumns = {
    project,
    traceId,
    truncated,
    ids: new Array(n),
    parents: new Array(n),
    startedAt: new Array(n),
    endedAt: new Array(n),
    status: new Array(n),
    opName: new Array(n),
    displayName: new Array(n),
    sessionId: new Array(n),
    attributes: new Array(n),
    summary: new Array(n),
    exception: new Array(n),
    strings: [],
    values: [],
  };
  const orNull = <T>(value: T | null | undefined, add: (v: T) => number) =>
    value === null || value === undefined ? null : add(value);
  const addString = (s: string) => strings.add(s);
  const addValue = (v: unknown) => values.add(v);
  for (let i = 0; i < n; i++) {
    const call = calls[i] as TraceColumnsCall;
    out.ids[i] = call.id;
    out.parents[i] = call.parentId === null ? null : (position.get(call.parentId) ?? call.parentId);
    out.startedAt[i] = call.startedAt;
    out.endedAt[i] = call.endedAt;
    out.status[i] = call.status;
    out.opName[i] = strings.add(call.opName);
    out.displayName[i] = orNull(call.displayName, addString);
    out.sessionId[i] = orNull(call.sessionId, addString);
    out.attributes[i] = values.add(call.attributes);
    out.summary[i] = orNull(call.summary, addValue);
    out.exception[i] = orNull(call.exception, addValue);
  }
  out.strings = strings.items as string[];
  out.values = values.items;
  return out;
}

/** A `traceColumnsResponse` whose columns do not line up (`WEFT_BAD_RESPONSE`): the message says where. */
export class TraceColumnsError extends WeftError {
  constructor(problem: string) {
    super({ code: 'WEFT_BAD_RESPONSE', message: `Malformed trace columns: ${problem}.` });
  }
}

/**
 * The light calls a `traceColumnsResponse` holds, in its order: each as
 * `traceCallsResponse` gives it. Calls sharing a value share one object:
 * read them, do not change them. Throws {@link TraceColumnsError} when a
 * column's length or an index does not fit. `C`: the calls' type (`Call`),
 * whose values the answer holds as its server sent them.
 */
export function callsOfTraceColumns<C extends TraceColumnsCall = TraceColumnsCall>(
  columns: TraceColumns,
): C[] {
  const n = columns.ids.length;
  for (const name of COLUMNS) {
    if (columns[name].length !== n)
      throw new TraceColumnsError(`${name} holds ${columns[name].length} entries, ids ${n}`);
  }
  const string = (at: number) => {
    const s = columns.strings[at];
    if (s === undefined) throw new TraceColumnsError(`no string ${at}`);
    return s;
  };
  const value = (at: number | null): unknown => {
    if (at === null) return null;
    if (at >= columns.values.length) throw new TraceColumnsError(`no value ${at}`);
    return columns.values[at];
  };
  const calls: C[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const parent = columns.parents[i] as number | string | null;
    const display = columns.displayName[i] as number | null;
    const session = columns.sessionId[i] as number | null;
    const call: TraceColumnsCall = {
      project: columns.project,
      id: columns.ids[i] as string,
      traceId: columns.traceId,
      parentId: typeof parent === 'number' ? (columns.ids[parent] ?? missingParent(parent)) : parent,
      opName: string(columns.opName[i] as number),
      displayName: display === null ? null : string(display),
      startedAt: columns.startedAt[i] as number,
      endedAt: columns.endedAt[i] as number | null,
      status: columns.status[i] as TraceColumnsCall['status'],
      inputs: {},
      output: null,
      exception: value(columns.exception[i] as number | null),
      summary: value(columns.summary[i] as number | null),
      attributes: (value(columns.attributes[i] as number) ?? {}) as Record<string, unknown>,
    };
    if (session !== null) call.sessionId = string(session);
    calls[i] = call as C;
  }
  return calls;
}

/** The per-call columns, each as long as `ids`. */
const COLUMNS = [
  'parents',
  'startedAt',
  'endedAt',
  'status',
  'opName',
  'displayName',
  'sessionId',
  'attributes',
  'summary',
  'exception',
] as const satisfies readonly (keyof TraceColumns)[];

function missingParent(at: number): never {
  throw new TraceColumnsError(`parent ${at} is not a call of the answer`);
}
