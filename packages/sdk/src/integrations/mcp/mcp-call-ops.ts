import { op as defaultOp } from '../../client/index.js';
import type { WrapClientOptions } from '../wrap-options.js';
import { type McpOperation, type McpSide, mcpOpName } from './mcp-operations.js';
import { isErrorResult, McpToolError } from './mcp-tool-error.js';

type Params = Record<string, unknown>;
type Send = (params: Params) => Promise<unknown>;
type TracedRequest = (params: Params, send: Send) => Promise<unknown>;

/** Most ops kept per wrapper, one per operation and tool (or prompt) name; past it, calls share one op per operation. */
const MAX_OPS = 256;

/**
 * The ops that record MCP requests on one side of a connection. A request
 * is one call: its inputs are the request's parameters without `_meta`
 * (`{ name, arguments }`, `{ uri }`), its output the result, its display
 * name `tools/call search`. A tool result with `isError: true` makes the
 * call an error ({@link McpToolError}); the caller still gets the result.
 */
export class McpCallOps {
  readonly #side: McpSide;
  readonly #options: WrapClientOptions;
  readonly #ops = new Map<string, TracedRequest>();

  constructor(side: McpSide, options: WrapClientOptions) {
    this.#side = side;
    this.#options = options;
  }

  /** Sends (or answers) one request as a traced call and returns exactly what `send` gives. */
  async run(operation: McpOperation, params: Params, send: Send): Promise<unknown> {
    try {
      return await this.#opFor(operation, params)(params, send);
    } catch (error) {
      if (error instanceof McpToolError) return error.result;
      throw error;
    }
  }

  #opFor(operation: McpOperation, params: Params): TracedRequest {
    const raw = params[operation.targetParam];
    const target = typeof raw === 'string' ? raw : undefined;
    const named = operation.targetAttribute !== undefined && target !== undefined;
    const key = named ? `${operation.method} ${target}` : operation.method;
    const known = this.#ops.get(key);
    if (known !== undefined) return known;
    if (named && this.#ops.size >= MAX_OPS)
      return this.#opFor({ ...operation, targetAttribute: undefined }, params);
    const traced = (this.#options.weft?.op ?? defaultOp)(
      async function mcpRequest(request: Params, send: Send): Promise<unknown> {
        const result = await send(request);
        if (operation.method === 'tools/call' && isErrorResult(result))
          throw new McpToolError(target, result);
        return result;
      },
      {
        name: mcpOpName(this.#side, operation),
        postprocessInputs: (inputs) => withoutMeta(inputs.request),
        displayName: (inputs) => {
          const name = (inputs as Params)[operation.targetParam];
          return typeof name === 'string' ? `${operation.method} ${name}` : operation.method;
        },
        attributes: {
          ...this.#options.attributes,
          'mcp.method.name': operation.method,
          ...(named && operation.targetAttribute !== undefined
            ? { [operation.targetAttribute]: target }
            : {}),
        },
      },
    ) as TracedRequest;
    this.#ops.set(key, traced);
    return traced;
  }
}

/** The request's parameters as recorded: everything but `_meta` (trace context and transport details). */
function withoutMeta(params: unknown): Params {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return { params };
  const { _meta: _, ...rest } = params as Params;
  return rest;
}
