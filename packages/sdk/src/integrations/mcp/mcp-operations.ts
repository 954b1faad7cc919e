/** Which side of an MCP connection records a call: the one that sent the request, or the one that answered it. */
export type McpSide = 'client' | 'server';

/** An MCP request Weft traces, on either side. */
export interface McpOperation {
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** The `Client` method that sends it. */
  readonly clientMethod: 'callTool' | 'readResource' | 'getPrompt';
  /** The request parameter that names what is called: a tool or prompt name, a resource URI. */
  readonly targetParam: 'name' | 'uri';
  /**
   * The attribute that names the target, for filtering (`weft calls --attr
   * gen_ai.tool.name=search`); absent where targets are unbounded (resource URIs).
   */
  readonly targetAttribute?: string;
}

/**
 * The requests traced, named as the OpenTelemetry conventions for MCP name
 * them (`mcp.method.name`, `gen_ai.tool.name`, `gen_ai.prompt.name`).
 */
export const MCP_OPERATIONS: readonly McpOperation[] = [
  {
    method: 'tools/call',
    clientMethod: 'callTool',
    targetParam: 'name',
    targetAttribute: 'gen_ai.tool.name',
  },
  { method: 'resources/read', clientMethod: 'readResource', targetParam: 'uri' },
  {
    method: 'prompts/get',
    clientMethod: 'getPrompt',
    targetParam: 'name',
    targetAttribute: 'gen_ai.prompt.name',
  },
];

/** Op name of an operation on one side: `mcp.client.tools/call`, `mcp.server.resources/read`. */
export function mcpOpName(side: McpSide, operation: McpOperation): string {
  return `mcp.${side}.${operation.method}`;
}
