// `weft mcp`: an MCP server whose tools read (and, when allowed, write) a Weft server.
export { createWeftMcpServer, TOOLS, type WeftMcpOptions } from './weft-mcp-server.js';
