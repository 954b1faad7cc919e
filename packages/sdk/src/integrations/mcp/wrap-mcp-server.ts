import { parseTraceparent, withRemoteParent } from '../../context/index.js';
import { describeValue } from '../../datasets/index.js';
import { InvalidClientError } from '../../errors/index.js';
import { parseWrapOptions, type WrapClientOptions } from '../wrap-options.js';
import { McpCallOps } from './mcp-call-ops.js';
import { MCP_OPERATIONS, type McpOperation } from './mcp-operations.js';

/** Marks a handler this module wrapped, and a protocol object it wraps. */
const TRACED = Symbol.for('weft.integrations.mcp.server');

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The protocol object of an MCP server: the low-level `Server`, which keeps
 * its request handlers in a map by method. `McpServer` holds one as `.server`.
 */
interface ServerProtocol {
  setRequestHandler(schema: unknown, handler: unknown): void;
  _requestHandlers: Map<string, Handler>;
}

function protocolOf(server: unknown): ServerProtocol | undefined {
  const isProtocol = (value: unknown): value is ServerProtocol =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ServerProtocol).setRequestHandler === 'function' &&
    (value as ServerProtocol)._requestHandlers instanceof Map;
  if (isProtocol(server)) return server;
  const inner = (server as { server?: unknown } | null)?.server;
  return isProtocol(inner) ? inner : undefined;
}

/**
 * Traces an MCP server of `@modelcontextprotocol/sdk` (`McpServer` or the
 * low-level `Server`): every `tools/call`, `resources/read` and
 * `prompts/get` it answers is a call (`mcp.server.tools/call`, …) with the
 * request's parameters as inputs and the result as output; a tool that
 * throws or answers `isError: true` is recorded as an error. When the
 * request's `_meta` carries a valid W3C `traceparent` (as a client wrapped
 * with {@link wrapMcpClient} sends), the call joins the client's trace
 * under the client's call; a missing or malformed one is ignored and the
 * call starts a trace of its own. Trace context only places calls in a
 * trace: it never changes where they are sent. Handlers registered before
 * or after wrapping are traced alike. Returns the same server; wrapping it
 * again changes nothing.
 *
 * @example
 * const server = wrapMcpServer(new McpServer({ name: 'tools', version: '1.0.0' }));
 * @throws {InvalidClientError} when `server` is not an MCP server
 */
export function wrapMcpServer<T extends object>(server: T, options?: WrapClientOptions): T {
  const protocol = protocolOf(server);
  if (protocol === undefined) {
    throw new InvalidClientError(
      'wrapMcpServer',
      'an MCP server (McpServer or Server from `@modelcontextprotocol/sdk`)',
      describeValue(server),
      "new McpServer({ name: 'my-tools', version: '1.0.0' })",
    );
  }
  if ((protocol as unknown as Record<symbol, unknown>)[TRACED] === true) return server;
  const ops = new McpCallOps('server', parseWrapOptions('wrapMcpServer', options));
  const handlers = protocol._requestHandlers;
  const wrapHandlers = () => {
    for (const operation of MCP_OPERATIONS) {
      const handler = handlers.get(operation.method);
      if (handler !== undefined && (handler as { [TRACED]?: true })[TRACED] !== true) {
        handlers.set(operation.method, tracedHandler(operation, handler, ops));
      }
    }
  };
  wrapHandlers();
  // McpServer installs its handlers when the first tool, resource or prompt
  // is registered, through setRequestHandler: wrap what each call installs.
  const setRequestHandler = protocol.setRequestHandler;
  Object.defineProperty(protocol, 'setRequestHandler', {
    value: function (this: unknown, ...args: unknown[]): unknown {
      const result = Reflect.apply(setRequestHandler, this, args);
      wrapHandlers();
      return result;
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
  Object.defineProperty(protocol, TRACED, { value: true });
  return server;
}

/** A request handler that answers as a call, placed under the requester's call when its trace context is valid. */
function tracedHandler(operation: McpOperation, handler: Handler, ops: McpCallOps): Handler {
  const traced = (request: unknown, extra: unknown): Promise<unknown> => {
    const raw = (request as { params?: unknown } | null)?.params;
    const params = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const meta = params._meta;
    const parent =
      typeof meta === 'object' && meta !== null
        ? parseTraceparent(
            (meta as Record<string, unknown>).traceparent,
            (meta as Record<string, unknown>).tracestate,
          )
        : undefined;
    return withRemoteParent(parent, () => ops.run(operation, params, () => handler(request, extra)));
  };
  Object.defineProperty(traced, TRACED, { value: true });
  return traced;
}
