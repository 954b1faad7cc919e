import { defineCommand } from '../define-command.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { McpOptions } from './mcp-options.js';

interface McpFlags extends ServerFlags {
  allowWrites: boolean;
}

export const mcpCommand = defineCommand<McpOptions, McpFlags>({
  path: ['mcp'],
  summary: 'Serve MCP tools over stdio so a coding agent can find, read and compare traces',
  configure(command) {
    addServerFlags(command).option(
      '--allow-writes',
      'also offer tools that write: add calls to a dataset, give feedback, set a label',
    );
    command.addHelpText(
      'after',
      '\nAn MCP client starts it: e.g. `claude mcp add weft -- npx weft mcp --project my-app`. See docs/mcp.md.',
    );
  },
  resolve(_args, flags, env) {
    return { ...resolveServerFlags(flags, env), allowWrites: flags.allowWrites === true };
  },
  load: async () => (await import('./mcp.js')).mcp,
});

export type { McpOptions } from './mcp-options.js';
