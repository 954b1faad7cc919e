import type { ServerSettings } from '../server-flags.js';

/** Options of `weft mcp`. */
export interface McpOptions extends ServerSettings {
  /** Offer the tools that write: add calls to a dataset, give feedback, set a label. */
  allowWrites: boolean;
}
