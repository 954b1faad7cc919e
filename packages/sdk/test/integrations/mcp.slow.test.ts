import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Call } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as weft from '@weft/sdk';
import { wrapMcpClient, wrapMcpServer } from '@weft/sdk/mcp';
import { resetWeft } from '../../src/testing/index.js';
import { bundleScript } from '../support/index.js';

const SERVER_CHILD = fileURLToPath(new URL('../fixtures/mcp/mcp-server-child.ts', import.meta.url));

let url: string;
let closeServer: () => Promise<void>;
let serverScript: string;

beforeAll(async () => {
  const server = await startTestServer({ register: false });
  url = server.url;
  closeServer = () => server.close();
  serverScript = await bundleScript(SERVER_CHILD);
});
afterAll(async () => {
  await rm(serverScript, { force: true });
  await closeServer?.();
});

/**
 * A Weft client in this process (project `project`) and an MCP client
 * connected over stdio to the server child, a second process tracing to the
 * same Weft server and project. `calls()` closes the connection (the child
 * flushes and exits), flushes here, and lists every call of the project.
 */
async function connect(project: string, childEnv: Record<string, string> = {}, wrap = true) {
  const client = weft.init({ project, url, outbox: false });
  onTestFinished(() => resetWeft());
  const mcp = new Client({ name: 'weft-test-agent', version: '1.0.0' });
  if (wrap) wrapMcpClient(mcp);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript],
    env: { ...(process.env as Record<string, string>), WEFT_URL: url, WEFT_PROJECT: project, ...childEnv },
    stderr: 'inherit',
  });
  await mcp.connect(transport);
  let closed = false;
  onTestFinished(async () => {
    if (!closed) await mcp.close();
  });
  return {
    mcp,
    async calls(): Promise<Call[]> {
      closed = true;
      await mcp.close(); // waits for the child to exit, after its flush
      await client.flush();
      const calls = await client.getCalls().toArray();
      return calls.sort((a, b) => a.startedAt - b.startedAt);
    },
  };
}

const byOp = (calls: Call[], opName: string) => calls.filter((c) => c.opName === opName);

describe('MCP traced across a client process and a server process', () => {
  it('makes one trace: each server call under the client call that sent it, the tool’s own ops under it', async () => {
    const { mcp, calls } = await connect('mcp-one-trace');
    const params = { name: 'add', arguments: { a: 2, b: 3 } };
    const agent = weft.op(
      async function agent() {
        const sum = await mcp.callTool(params);
        const note = await mcp.readResource({ uri: 'note://greeting' });
        const prompt = await mcp.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
        return { sum, note, prompt };
      },
      { name: 'agent' },
    );
    const { sum, note, prompt } = await agent();
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
    expect(note.contents[0]).toMatchObject({ text: 'hello from the server' });
    expect(prompt.messages[0]?.content).toMatchObject({ text: 'Say hello to Ada' });
    expect(params).toEqual({ name: 'add', arguments: { a: 2, b: 3 } }); // no _meta added to the caller's object

    const all = await calls();
    const [root] = byOp(all, 'agent');
    expect(all.every((c) => c.traceId === root!.traceId)).toBe(true);
    const pairs = [
      ['tools/call', { name: 'add', arguments: { a: 2, b: 3 } }, 'tools/call add'],
      ['resources/read', { uri: 'note://greeting' }, 'resources/read note://greeting'],
      ['prompts/get', { name: 'greet', arguments: { name: 'Ada' } }, 'prompts/get greet'],
    ] as const;
    for (const [method, inputs, displayName] of pairs) {
      const [sent] = byOp(all, `mcp.client.${method}`);
      const [answered] = byOp(all, `mcp.server.${method}`);
      expect(sent).toMatchObject({ parentId: root!.id, inputs, displayName, status: 'success' });
      expect(answered).toMatchObject({ parentId: sent!.id, inputs, displayName, status: 'success' });
      expect(sent!.attributes['mcp.method.name']).toBe(method);
      expect(answered!.attributes['mcp.method.name']).toBe(method);
    }
    const [toolCall] = byOp(all, 'mcp.server.tools/call');
    expect(toolCall?.attributes['gen_ai.tool.name']).toBe('add');
    expect(toolCall?.output).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    const [compute] = byOp(all, 'compute');
    expect(compute).toMatchObject({ parentId: toolCall!.id, output: 5 });
    expect(all).toHaveLength(8);
  });

  it('records a failing tool as an error on both sides while the caller gets the isError result', async () => {
    const { mcp, calls } = await connect('mcp-tool-error');
    const result = await mcp.callTool({ name: 'fail', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining('the refund service is down') },
    ]);
    const all = await calls();
    const [sent] = byOp(all, 'mcp.client.tools/call');
    const [answered] = byOp(all, 'mcp.server.tools/call');
    for (const call of [sent, answered]) {
      expect(call?.status).toBe('error');
      expect(call?.exception).toMatchObject({
        name: 'McpToolError',
        message: expect.stringContaining('Tool fail returned an error: '),
      });
      expect(call?.output).toBeNull();
    }
    expect(answered?.parentId).toBe(sent?.id);
    expect(sent?.parentId).toBeNull();
  });

  it('traces a server wrapped after its tools were registered the same way', async () => {
    const { mcp, calls } = await connect('mcp-wrap-late', { MCP_WRAP_LATE: '1' });
    await mcp.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    const all = await calls();
    const [sent] = byOp(all, 'mcp.client.tools/call');
    expect(byOp(all, 'mcp.server.tools/call')[0]?.parentId).toBe(sent?.id);
  });

  it('works against a server without the wrapper, which ignores the trace context', async () => {
    const { mcp, calls } = await connect('mcp-plain-server', { MCP_WRAP: '0' });
    const result = await mcp.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    expect(result.content).toEqual([{ type: 'text', text: '42' }]);
    const all = await calls();
    expect(all.map((c) => c.opName)).toEqual(['mcp.client.tools/call']);
  });

  it.each([
    ['not a string', 42],
    ['not W3C', 'not-a-traceparent'],
    ['upper-case hex', '00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`],
    ['version ff', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'.replace(/^00/, 'ff')],
  ])(
    'ignores a malformed traceparent (%s): the server call starts its own trace',
    async (_case, traceparent) => {
      const { mcp, calls } = await connect('mcp-bad-meta', {}, false);
      const result = await mcp.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent } });
      expect(result.content).toEqual([{ type: 'text', text: '3' }]);
      const [answered] = byOp(await calls(), 'mcp.server.tools/call');
      expect(answered).toMatchObject({ parentId: null, traceId: answered!.id, status: 'success' });
    },
  );
});

describe('wrapMcpClient and wrapMcpServer in one process', () => {
  it('leave the caller’s params unchanged, trace once when wrapped twice, and refuse what is not MCP', async () => {
    const mcp = new Client({ name: 'x', version: '1.0.0' });
    expect(wrapMcpClient(wrapMcpClient(mcp))).toBe(mcp);
    const method = mcp.callTool;
    wrapMcpClient(mcp);
    expect(mcp.callTool).toBe(method);
    for (const wrap of [wrapMcpClient, wrapMcpServer]) {
      expect(() => wrap({} as object)).toThrow(expect.objectContaining({ code: 'WEFT_INVALID_CLIENT' }));
    }
  });
});
