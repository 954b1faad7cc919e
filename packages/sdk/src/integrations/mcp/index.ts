export { InvalidClientError } from '../../errors/index.js';
export type { WrapClientOptions } from '../wrap-options.js';
export { McpToolError } from './mcp-tool-error.js';
export { wrapMcpClient } from './wrap-mcp-client.js';
export { wrapMcpServer } from './wrap-mcp-server.js';
