import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callIdOfSpan, traceIdOfOtel } from '@weft/protocol';
import { describe, expect, it } from 'vitest';
import { wrapMcpClient, wrapMcpServer } from '@weft/sdk/mcp';
import { setup } from './setup.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

async function linked(client: Client, server: McpServer): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
}

describe('MCP trace context through a wrapped server that is itself a wrapped client', () => {
  it('joins the caller’s trace from a valid traceparent and passes its tracestate on to the next server', async () => {
    const { calls } = await setup('mcp-trace-context');
    // downstream: a plain server that reports the _meta it received.
    const downstream = new McpServer({ name: 'downstream', version: '1.0.0' });
    downstream.registerTool('seen', { inputSchema: {} }, async (_args, extra) => ({
      content: [{ type: 'text', text: JSON.stringify(extra._meta ?? {}) }],
    }));
    const relayClient = wrapMcpClient(new Client({ name: 'relay', version: '1.0.0' }));
    await linked(relayClient, downstream);
    // relay: a wrapped server whose tool calls downstream through a wrapped client.
    const relay = wrapMcpServer(new McpServer({ name: 'relay', version: '1.0.0' }));
    relay.registerTool(
      'forward',
      { inputSchema: {} },
      async () => (await relayClient.callTool({ name: 'seen', arguments: {} })) as CallToolResult,
    );
    const caller = new Client({ name: 'caller', version: '1.0.0' });
    await linked(caller, relay);

    const result = await caller.callTool({
      name: 'forward',
      arguments: {},
      _meta: { traceparent: `00-${TRACE}-${SPAN}-01`, tracestate: 'vendor=abc,other=1' },
    });
    const seen = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, string>;
    expect(seen.tracestate).toBe('vendor=abc,other=1');
    expect(seen.traceparent).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));

    const all = await calls();
    const answered = all.find((c) => c.opName === 'mcp.server.tools/call');
    const sent = all.find((c) => c.opName === 'mcp.client.tools/call');
    expect(answered).toMatchObject({ traceId: traceIdOfOtel(TRACE), parentId: callIdOfSpan(TRACE, SPAN) });
    expect(sent).toMatchObject({ traceId: traceIdOfOtel(TRACE), parentId: answered!.id });
    expect(seen.traceparent).toBe(`00-${TRACE}-${sent!.id.replaceAll('-', '').slice(16)}-01`);
    await Promise.all([caller.close(), relayClient.close()]);
  });
});
