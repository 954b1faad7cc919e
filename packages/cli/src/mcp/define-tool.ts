import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ToolContext } from './tool-context.js';

/** One tool of `weft mcp`: its name, what an agent reads about it, its arguments, and what it does. */
export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  description: string;
  inputSchema: S;
  /** Writes something (only offered with `--allow-writes`). */
  writes?: boolean;
  run(args: z.infer<z.ZodObject<S>>, context: ToolContext): Promise<CallToolResult>;
}

/** Declares a tool; the list in `weft-mcp-server.ts` registers it. */
export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<S> {
  return spec;
}
