import { currentCall, currentRemoteParent, traceparentOf } from '../../context/index.js';
import { describeValue } from '../../datasets/index.js';
import { InvalidClientError } from '../../errors/index.js';
import { parseWrapOptions, type WrapClientOptions } from '../wrap-options.js';
import { McpCallOps } from './mcp-call-ops.js';
import { MCP_OPERATIONS } from './mcp-operations.js';

/** Marks a client this module wrapped, so wrapping it twice traces each request once. */
const WRAPPED = Symbol.for('weft.integrations.mcp.client');

type Method = (this: unknown, params: unknown, ...rest: unknown[]) => Promise<unknown>;

function isMcpClient(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Record<string, unknown>;
  return MCP_OPERATIONS.every((o) => typeof client[o.clientMethod] === 'function');
}

/**
 * Traces a `Client` of `@modelcontextprotocol/sdk`: every `callTool`,
 * `readResource` and `getPrompt` is a call (`mcp.client.tools/call`, …)
 * under the caller's current call, with the request's parameters as inputs
 * and the result as output; a tool result with `isError: true` is recorded
 * as an error, and returned to the caller unchanged. Each request carries
 * the call's W3C trace context in `params._meta` (`traceparent`, and the
 * `tracestate` this process received, if any), so a server wrapped with
 * {@link wrapMcpServer} records its side in the same trace. A server
 * without the wrapper ignores `_meta`. Returns the same client; wrapping it
 * again changes nothing.
 *
 * @example
 * const client = wrapMcpClient(new Client({ name: 'agent', version: '1.0.0' }));
 * @throws {InvalidClientError} when `client` is not an MCP client
 */
export function wrapMcpClient<T extends object>(client: T, options?: WrapClientOptions): T {
  if (!isMcpClient(client)) {
    throw new InvalidClientError(
      'wrapMcpClient',
      'an MCP client (Client from `@modelcontextprotocol/sdk/client/index.js`)',
      describeValue(client),
      "new Client({ name: 'my-agent', version: '1.0.0' })",
    );
  }
  if (client[WRAPPED as unknown as string] === true) return client;
  const ops = new McpCallOps('client', parseWrapOptions('wrapMcpClient', options));
  for (const operation of MCP_OPERATIONS) {
    const original = client[operation.clientMethod] as Method;
    const traced = function (this: unknown, params: unknown, ...rest: unknown[]): Promise<unknown> {
      const self = this === undefined ? client : this;
      if (typeof params !== 'object' || params === null)
        return Reflect.apply(original, self, [params, ...rest]);
      return ops.run(operation, params as Record<string, unknown>, (request) =>
        Reflect.apply(original, self, [withTraceContext(request), ...rest]),
      );
    };
    Object.defineProperty(client, operation.clientMethod, {
      value: traced,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
  Object.defineProperty(client, WRAPPED, { value: true });
  return client;
}

/**
 * The request's parameters with the running call's trace context added to
 * `_meta` (a copy: the caller's object is not changed). Called inside the
 * request's op, so the current call is the one the server's call goes under.
 */
function withTraceContext(params: Record<string, unknown>): Record<string, unknown> {
  const call = currentCall();
  if (call === undefined) return params; // Not traced (sampled out, or no client): nothing to join.
  const meta = params._meta;
  const traceState = currentRemoteParent()?.traceState;
  return {
    ...params,
    _meta: {
      ...(typeof meta === 'object' && meta !== null ? meta : {}),
      traceparent: traceparentOf(call),
      ...(traceState === undefined ? {} : { tracestate: traceState }),
    },
  };
}
