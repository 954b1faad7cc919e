import { once } from 'node:events';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { cliVersion } from '../../version/index.js';
import { ExitCode } from '../../exit/index.js';
import type { CliIo } from '../../io/index.js';
import { createWeftMcpServer } from '../../mcp/index.js';
import type { McpOptions } from './mcp-options.js';

/**
 * `weft mcp`: an MCP server on this process's stdin and stdout (stdout is
 * the protocol's: nothing else is written there), serving until the client
 * closes stdin or the process is asked to stop.
 */
export async function mcp(options: McpOptions, io: CliIo): Promise<number> {
  const server = createWeftMcpServer({
    target: { url: options.url, token: options.token },
    project: options.project,
    allowWrites: options.allowWrites,
    version: cliVersion(),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  io.stderr.write(
    `weft mcp: tools for ${options.url}${options.project ? ` (project ${options.project})` : ''}; writes ${options.allowWrites ? 'allowed' : 'off (--allow-writes)'}.\n`,
  );
  const stdinEnded = once(process.stdin, 'end').then(() => undefined);
  const stopped =
    io.signal === undefined ? new Promise<never>(() => {}) : once(io.signal, 'abort').then(() => undefined);
  await Promise.race([closed, stdinEnded, stopped]);
  await server.close();
  return ExitCode.ok;
}
