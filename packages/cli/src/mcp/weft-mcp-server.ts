import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerTarget } from '../http/index.js';
import type { ToolSpec } from './define-tool.js';
import { ToolContext } from './tool-context.js';
import { compareRunsTool } from './tools/compare-runs-tool.js';
import { getCallTool } from './tools/get-call-tool.js';
import { getSessionTool } from './tools/get-session-tool.js';
import { getTraceTool } from './tools/get-trace-tool.js';
import { listProjectsTool } from './tools/list-projects-tool.js';
import { listSessionsTool } from './tools/list-sessions-tool.js';
import { queryMetricsTool } from './tools/query-metrics-tool.js';
import { searchCallsTool } from './tools/search-calls-tool.js';
import { addToDatasetTool, giveFeedbackTool, setLabelTool } from './tools/write-tools.js';

/** Every tool, reads first; the writes are registered only with `allowWrites`. */
// biome-ignore lint/suspicious/noExplicitAny: each spec keeps its own argument shape.
export const TOOLS: readonly ToolSpec<any>[] = [
  listProjectsTool,
  searchCallsTool,
  getTraceTool,
  getCallTool,
  listSessionsTool,
  getSessionTool,
  compareRunsTool,
  queryMetricsTool,
  addToDatasetTool,
  giveFeedbackTool,
  setLabelTool,
];

/** Options of {@link createWeftMcpServer}. */
export interface WeftMcpOptions {
  /** The Weft server it reads, and the token it sends (the same scopes as the HTTP API). */
  target: ServerTarget;
  /** The project tools use when a call names none. */
  project: string | undefined;
  /** Offer the tools that write (add to a dataset, give feedback, set a label). @default false */
  allowWrites?: boolean;
  version: string;
}

/**
 * An MCP server whose tools read a Weft server through its HTTP API — it is
 * a client of that API, so a token scoped to some projects reaches only
 * those. A tool that fails answers an MCP tool error with the message of
 * the Weft error (`No calls of trace … in project …`); the server keeps serving.
 */
export function createWeftMcpServer({
  target,
  project,
  allowWrites = false,
  version,
}: WeftMcpOptions): McpServer {
  const server = new McpServer(
    { name: 'weft', version },
    {
      instructions:
        'Weft stores traces of LLM apps: calls (an op with inputs, output, latency, tokens, cost) nested into traces. Find calls with search_calls, read a trace with get_trace (an outline within a token budget, failing and slowest paths kept), read a call whole with get_call.',
    },
  );
  const context = new ToolContext(target, project);
  for (const tool of TOOLS) {
    if (tool.writes === true && !allowWrites) continue;
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.writes !== true, openWorldHint: false },
      },
      (args: Record<string, unknown>) => tool.run(args, context),
    );
  }
  return server;
}
