import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortId } from '../src/trace-outline/compact-figures.js';
import { type AgentTrace, agentTrace } from './support/agent-trace.js';
import { postItems } from './support/post-items.js';
import { shopId, shopItems } from './support/shop-calls.js';

// The real, built binary, started by the real MCP SDK client over stdio, as an agent's MCP client would.
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ADMIN = 'mcp-admin-token';
const SHOP_ONLY = 'mcp-shop-token';

let server: TestServer;
let agent: AgentTrace;
const clients: Client[] = [];

async function connect(args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'weft-mcp-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--url', server.url, ...args],
      env: { PATH: process.env.PATH ?? '', WEFT_API_KEY: ADMIN, ...env },
      stderr: 'ignore',
    }),
  );
  clients.push(client);
  return client;
}

/** A tool's answer: its text, and whether it is an error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  return { text: content.map((c) => c.text).join('\n'), isError: result.isError === true };
}

let mcp: Client;

beforeAll(async () => {
  server = await startTestServer({ register: false, token: ADMIN, projectTokens: { [SHOP_ONLY]: ['shop'] } });
  agent = agentTrace();
  await postItems(server.url, 'shop', shopItems(), ADMIN);
  await postItems(server.url, 'agents', agent.items, ADMIN);
  await postItems(server.url, 'other', shopItems().slice(0, 1), ADMIN);
  mcp = await connect(['--project', 'shop']);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.close();
});

describe('weft mcp over stdio with the real MCP SDK client', () => {
  it('offers the read tools, and the write tools only with --allow-writes', async () => {
    const reads = (await mcp.listTools()).tools.map((t) => t.name).sort();
    expect(reads).toEqual([
      'compare_runs',
      'get_call',
      'get_session',
      'get_trace',
      'list_projects',
      'list_sessions',
      'query_metrics',
      'search_calls',
    ]);
    const writer = await connect(['--project', 'shop', '--allow-writes']);
    const all = (await writer.listTools()).tools;
    expect(all.map((t) => t.name)).toEqual(
      expect.arrayContaining(['add_to_dataset', 'give_feedback', 'set_label']),
    );
    expect(all.find((t) => t.name === 'give_feedback')?.annotations?.readOnlyHint).toBe(false);
  });

  it('list_projects names every project with its calls', async () => {
    const { text, isError } = await call(mcp, 'list_projects');
    expect(isError).toBe(false);
    expect(text).toMatch(/^agents {2}25,001 calls/m);
    expect(text).toMatch(/^shop {2}\d+ calls/m);
  });

  it.each([
    [{ text: 'damaged' }, [1, 2], [3]],
    [{ status: 'error', roots: true }, [3, 400], [1]],
    [{ attributes: { env: 'prod', tier: 2 } }, [1], [3]],
    [{ user_id: 'u-bob' }, [3], [1]],
    [{ tag: ['vip', 'eu'] }, [1], [3]],
    [{ feedback: { name: 'thumbs', value: false } }, [3], [1]],
    [{ session_id: 'thread-A' }, [10, 11], [1]],
    [{ op: 'refund', since: '2026-11-20T09:00:30Z' }, [3], [1]],
    [{ op: 'refund', until: '2026-11-20T09:00:30Z' }, [1], [3]],
    [{ trace_id: shopId(1) }, [1, 2], [3]],
  ])('search_calls filters: %j', async (args, present, absent) => {
    const { text, isError } = await call(mcp, 'search_calls', args);
    expect(isError).toBe(false);
    for (const n of present) expect(text).toContain(`call=${shopId(n)}`);
    for (const n of absent) expect(text).not.toContain(`call=${shopId(n)}`);
  });

  it('search_calls sorts by latency and pages with a cursor', async () => {
    const first = await call(mcp, 'search_calls', { op: 'refund', sort: 'latency:desc', limit: 1 });
    expect(first.text).toContain(`call=${shopId(1)}`);
    const cursor = /cursor "([^"]+)"/.exec(first.text)?.[1];
    expect(cursor).toBeDefined();
    const second = await call(mcp, 'search_calls', { op: 'refund', sort: 'latency:desc', limit: 1, cursor });
    expect(second.text).toContain(`call=${shopId(3)}`);
    expect(second.text).toContain('no more match');
  });

  it.each([
    ['search_calls', { status: 'ok' }, /Invalid arguments for tool search_calls.*status/s],
    ['search_calls', { limit: 'ten' }, /Invalid arguments for tool search_calls.*limit/s],
    ['search_calls', { sort: 'cost' }, /`sort` must be started, latency or op/],
    ['search_calls', { since: 'yesterday' }, /`since` must be an ISO date/],
    ['get_trace', { trace_id: 'abc' }, /Invalid arguments for tool get_trace.*trace_id/s],
    ['get_trace', { trace_id: shopId(999) }, /No calls of trace .* in project shop/],
    [
      'get_trace',
      { trace_id: shopId(1), max_tokens: 10 },
      /Invalid arguments for tool get_trace.*max_tokens/s,
    ],
    ['get_call', { call_id: shopId(999) }, /No call .* in project shop/],
    ['get_call', { call_id: '#0123456789abcdef' }, /needs `trace_id`/],
    ['get_call', { call_id: shopId(1), path: 'inputs.nope' }, /nothing at `inputs.nope`/],
    ['compare_runs', { run_a: shopId(200), run_b: shopId(1) }, /not .*Evaluation\.evaluate/],
    ['no_such_tool', {}, /Tool no_such_tool not found/],
  ])(
    '%s with %j is an error that names the problem, and the server keeps serving',
    async (tool, args, message) => {
      const { text, isError } = await call(mcp, tool, args);
      expect(isError).toBe(true);
      expect(text).toMatch(message);
      expect((await call(mcp, 'list_projects')).isError).toBe(false);
    },
  );

  it('get_trace outlines a 25,001-call trace within 8,000 real tokens and names the failing call', async () => {
    const { text, isError } = await call(mcp, 'get_trace', {
      project: 'agents',
      trace_id: agent.traceId,
      max_tokens: 8_000,
    });
    expect(isError).toBe(false);
    expect(countTokens(text)).toBeLessThanOrEqual(8_000);
    expect(text).toContain(
      `#${shortId(agent.failingId)} <- failing ! TimeoutError: refund-service upstream timed out`,
    );
    expect(text).toContain(`#${shortId(agent.slowestId)} <- slowest`);
    expect(text).toContain('25k calls, 3 ERR');
  }, 60_000);

  it('get_trace says what a budget too small needs', async () => {
    const { text, isError } = await call(mcp, 'get_trace', {
      project: 'agents',
      trace_id: agent.traceId,
      max_tokens: 250,
    });
    expect(isError).toBe(true);
    expect(text).toMatch(/needs about [\d,]+ tokens .* raise max_tokens to at least [\d,]+/);
  }, 60_000);

  it('get_call reads a call whole, by full id or by an outline #id, a value by path, pages by offset', async () => {
    const whole = await call(mcp, 'get_call', { call_id: shopId(2) });
    expect(whole.text).toContain('[system] You approve refunds.');
    expect(whole.text).toContain('[assistant] Refund approved for A-1001.');
    const byShort = await call(mcp, 'get_call', {
      project: 'agents',
      call_id: `#${shortId(agent.failingId)}`,
      trace_id: agent.traceId,
    });
    expect(byShort.text).toContain(`call ${agent.failingId}: tool.search, error`);
    expect(byShort.text).toContain('exception TimeoutError: refund-service upstream timed out after 3000 ms');
    const value = await call(mcp, 'get_call', { call_id: shopId(1), path: 'inputs.reason' });
    expect(value.text).toBe('damaged parcel');
    const page = await call(mcp, 'get_call', {
      call_id: shopId(1),
      path: 'inputs.reason',
      max_chars: 200,
      offset: 8,
    });
    expect(page.text).toBe('parcel');
    const cut = await call(mcp, 'get_call', { call_id: shopId(2), max_chars: 200 });
    expect(cut.text).toMatch(/more chars: pass offset=200\]$/);
  });

  it('list_sessions and get_session read a session as a conversation', async () => {
    const list = await call(mcp, 'list_sessions');
    expect(list.text).toMatch(/^thread-A {2}2 turns/m);
    const session = await call(mcp, 'get_session', { session_id: 'thread-A' });
    expect(session.text).toMatch(
      /turn 1 .*\n\[user\] Where is my order\?\n\[assistant\] It ships tomorrow\.\n\nturn 2 .*\n\[user\] Can I change the address\?\n\[assistant\] Yes, until it ships\./,
    );
  });

  it('compare_runs compares two runs by id, with the changed rows, and names a crashed run from its inputs', async () => {
    const { text } = await call(mcp, 'compare_runs', { run_a: shopId(200), run_b: shopId(300) });
    expect(text).toMatch(/^model\s+model-a\s+model-b$/m);
    expect(text).toMatch(/^1\s+0\s+exact: false → true$/m);
    const crashed = await call(mcp, 'compare_runs', { run_a: shopId(400), run_b: shopId(300) });
    expect(crashed.text).toMatch(/^evaluation\s+qa\s+qa$/m);
    expect(crashed.text).toMatch(/^model\s+model-c\s+model-b$/m);
  });

  it('query_metrics reads measures per bucket, split by op, filtered, with feedback means', async () => {
    const range = { since: '2026-11-20', until: '2026-11-21', bucket: 'total' };
    const byOp = await call(mcp, 'query_metrics', {
      ...range,
      measures: ['count', 'errors'],
      group_by: 'op',
      filter: { parentId: null },
    });
    expect(byOp.isError).toBe(false);
    expect(byOp.text).toMatch(/^bucket start \| .*count \[refund\]/m);
    const [head, row] = byOp.text
      .split('\n')
      .slice(1, 3)
      .map((line) => line.split(' | '));
    const at = (title: string) => Number(row![head!.indexOf(title)]);
    expect(at('count [refund]')).toBe(2);
    expect(at('errors [refund]')).toBe(1);
    expect(at('count [chat]')).toBe(2);
    const thumbs = await call(mcp, 'query_metrics', { ...range, measures: ['feedback:thumbs'] });
    expect(thumbs.text).toMatch(/\| 0\.5000 \[.*\] n=2$/m);
    const bad = await call(mcp, 'query_metrics', { ...range, measures: ['speed'] });
    expect(bad).toMatchObject({ isError: true, text: expect.stringContaining('Unknown measure "speed"') });
    const badFilter = await call(mcp, 'query_metrics', {
      ...range,
      measures: ['count'],
      filter: { opname: 'x' },
    });
    expect(badFilter).toMatchObject({ isError: true, text: expect.stringMatching(/opname/) });
  });

  it('holds a project-scoped token to its projects, as the HTTP API does', async () => {
    const scoped = await connect([], { WEFT_API_KEY: SHOP_ONLY, WEFT_PROJECT: 'shop' });
    expect((await call(scoped, 'search_calls', { op: 'refund' })).text).toContain(`call=${shopId(1)}`);
    const other = await call(scoped, 'search_calls', { project: 'other' });
    expect(other).toMatchObject({ isError: true });
    expect(other.text).toMatch(/other/);
    const trace = await call(scoped, 'get_trace', { project: 'agents', trace_id: agent.traceId });
    expect(trace.isError).toBe(true);
    const projects = await call(scoped, 'list_projects');
    expect(projects.isError).toBe(true);
    const wrong = await connect([], { WEFT_API_KEY: 'not-a-token', WEFT_PROJECT: 'shop' });
    expect(await call(wrong, 'search_calls')).toMatchObject({
      isError: true,
      text: expect.stringMatching(/token/i),
    });
  });

  it('writes feedback, a dataset and a label with --allow-writes', async () => {
    const writer = await connect(['--project', 'shop', '--allow-writes']);
    const feedback = await call(writer, 'give_feedback', {
      call_id: shopId(11),
      name: 'helpful',
      value: 4,
      comment: 'clear',
    });
    expect(feedback.text).toContain('Feedback helpful=4 recorded');
    expect((await call(writer, 'search_calls', { feedback: { name: 'helpful', value: 4 } })).text).toContain(
      `call=${shopId(11)}`,
    );
    const dataset = await call(writer, 'add_to_dataset', {
      dataset: 'refund-cases',
      call_ids: [shopId(1), shopId(3)],
    });
    expect(dataset.text).toMatch(/Dataset refund-cases v1 \(2 rows\)/);
    const more = await call(writer, 'add_to_dataset', { dataset: 'refund-cases', call_ids: [shopId(10)] });
    expect(more.text).toMatch(/v2 \(3 rows\)/);
    const label = await call(writer, 'set_label', {
      object: 'refund-cases',
      label: 'production',
      version: 1,
    });
    expect(label.text).toContain('refund-cases:production now points at v1');
    // Without --allow-writes the tools are not there.
    expect(await call(mcp, 'give_feedback', { call_id: shopId(11), name: 'x', value: true })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/not found/),
    });
  });
});
