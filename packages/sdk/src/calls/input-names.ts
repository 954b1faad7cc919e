const IDENT = /^[A-Za-z_$][\w$]*$/;

/** A parameter of a wrapped function, as parsed from its source text once at wrap time. */
export interface ParamName {
  /** The identifier, or `undefined` for a destructured parameter. */
  readonly name: string | undefined;
  readonly rest: boolean;
}

/** Text between the first `(` and its matching `)`, skipping strings, comments and nested brackets. */
function parameterText(source: string): string | undefined {
  const arrow = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
  if (arrow) return arrow[1];
  const open = source.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < source.length && source[i] !== c; i++) if (source[i] === '\\') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i + 2);
      if (i < 0) return undefined;
      i++;
    } else if (c === '/' && source[i + 1] === '/') {
      i = source.indexOf('\n', i);
      if (i < 0) return undefined;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return source.slice(open + 1, i);
    }
  }
  return undefined;
}

/** Splits at top-level commas. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').trim()).filter((p) => p.length > 0);
}

/**
 * Parameter names of `fn`, parsed from its source once when the op is
 * wrapped (never per call). Defaults are dropped, rest parameters flagged,
 * destructured parameters have no name. Native and bound functions give [].
 */
export function parameterNames(fn: (...args: never[]) => unknown): ParamName[] {
  let source: string;
  try {
    source = Function.prototype.toString.call(fn);
  } catch {
    return [];
  }
  if (source.includes('[native code]')) return [];
  const text = parameterText(source);
  if (text === undefined) return [];
  return splitTopLevel(text).map((part) => {
    const rest = part.startsWith('...');
    const bare = (rest ? part.slice(3) : part).split('=')[0]?.trim() ?? '';
    return { name: IDENT.test(bare) ? bare : undefined, rest };
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The inputs record of one call: `{ [paramName]: arg }`, `arg<i>` for unnamed
 * positions, a rest parameter as an array. A lone plain-object argument bound
 * to a destructured parameter is recorded as the record itself, so
 * `op(({ query, k }) => …)` shows `{ query, k }`.
 */
export function namedInputs(params: readonly ParamName[], args: readonly unknown[]): Record<string, unknown> {
  const first = params[0];
  if (
    args.length === 1 &&
    first !== undefined &&
    first.name === undefined &&
    !first.rest &&
    isPlainObject(args[0])
  ) {
    return args[0];
  }
  const inputs: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const param = params[i];
    if (param?.rest) {
      inputs[param.name ?? `arg${i}`] = args.slice(i);
      break;
    }
    inputs[param?.name ?? `arg${i}`] = args[i];
  }
  return inputs;
}
