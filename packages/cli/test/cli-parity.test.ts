import { startTestServer, type TestServer } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@weft/protocol';
import { runCli } from '../src/cli/run-cli.js';
import { ExitCode } from '../src/exit/exit-code.js';
import { captureIo } from './support/capture-io.js';
import { postItems, postJsonTo } from './support/post-items.js';
import { shopId, shopItems } from './support/shop-calls.js';

let shop: TestServer;
let two: TestServer;

beforeAll(async () => {
  // One project on this server (weft calls needs no --project), two on the other.
  shop = await startTestServer({ register: false });
  await postItems(shop.url, 'shop', shopItems());
  await postJsonTo(shop.url, routes.datasetFromCalls(), {
    project: 'shop',
    name: 'refund-cases',
    callIds: [shopId(1), shopId(3)],
  });
  await postJsonTo(shop.url, routes.objectLabelSet(), {
    project: 'shop',
    name: 'refund-cases',
    label: 'production',
    version: 1,
  });
  two = await startTestServer({ register: false });
  await postItems(two.url, 'alpha', shopItems().slice(0, 2));
  await postItems(two.url, 'beta', shopItems().slice(2, 3));
});
afterAll(async () => {
  await Promise.all([shop?.close(), two?.close()]);
});

async function weft(argv: string[], url = shop.url) {
  const io = captureIo({ WEFT_URL: url });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** Ids printed in the id column of a `weft calls` table. */
const idsIn = (out: string) =>
  [...out.matchAll(/ (01a20000-0000-7000-8000-[0-9a-f]{12}) /g)].map((m) => m[1]);

describe('weft calls filters against a real server', () => {
  it.each([
    [
      ['--text', 'damaged'],
      [shopId(2), shopId(1)],
    ],
    [['--attr', 'env=prod', '--attr', 'tier=2'], [shopId(1)]],
    [['--attr', 'tier="2"'], []], // a quoted number is text, and tier is stored as a number
    [
      ['--session', 'thread-A'],
      [shopId(11), shopId(10)],
    ],
    [['--user', 'u-bob'], [shopId(3)]],
    [['--tag', 'vip'], [shopId(1)]],
    [['--tag', 'eu', '--tag', 'vip'], [shopId(1)]],
    [['--feedback', 'thumbs=false'], [shopId(3)]],
    [
      ['--feedback', 'thumbs'],
      [shopId(3), shopId(1)],
    ],
    [['--op', 'refund', '--since', '2026-11-20T09:00:30Z'], [shopId(3)]],
    [['--op', 'refund', '--until', '2026-11-20T09:00:30Z'], [shopId(1)]],
    [
      ['--roots', '--op', 'refund', '--op', 'openai.chat.completions.create'],
      [shopId(3), shopId(1)],
    ],
    [
      ['--op', 'refund', '--sort', 'latency'],
      [shopId(1), shopId(3)],
    ],
    [
      ['--op', 'refund', '--sort', 'latency:asc'],
      [shopId(3), shopId(1)],
    ],
    [['--status', 'error', '--status', 'running', '--op', 'refund'], [shopId(3)]],
  ])('weft calls %j', async (flags, ids) => {
    const { code, out, err } = await weft(['calls', ...flags]);
    expect(err).toBe('');
    expect(code).toBe(ExitCode.ok);
    expect(idsIn(out)).toEqual(ids);
  });

  it('uses the only project when none is given, and lists the projects when there are several', async () => {
    expect((await weft(['calls', '--op', 'refund'])).code).toBe(ExitCode.ok);
    const { code, out, err } = await weft(['calls'], two.url);
    expect(code).toBe(ExitCode.usage);
    expect(out).toBe('');
    expect(err).toMatch(
      /^weft: error: No project given, and the server at .* has 2: alpha \(2 calls\), beta \(1 call\)\. Pick one with --project <name> or WEFT_PROJECT\.\n$/,
    );
    expect((await weft(['calls', '--project', 'beta'], two.url)).code).toBe(ExitCode.ok);
  });

  it('prints a table, CSV and JSON of the same calls', async () => {
    const flags = ['calls', '--op', 'refund'];
    expect((await weft(flags)).out).toMatchSnapshot('table');
    expect((await weft([...flags, '--format', 'csv'])).out).toMatchSnapshot('csv');
    const json = JSON.parse((await weft([...flags, '--json'])).out);
    expect(json.map((c: { id: string }) => c.id)).toEqual([shopId(3), shopId(1)]);
    expect(json[0]).toMatchObject({
      project: 'shop',
      opName: 'refund',
      status: 'error',
      exception: { name: 'TimeoutError' },
    });
  });
});

describe('weft projects, sessions, call, datasets and evals against a real server', () => {
  it.each([
    ['projects', ['projects']],
    ['sessions', ['sessions']],
    ['datasets', ['datasets']],
    ['evals', ['evals']],
  ])('%s: table, CSV and JSON', async (name, argv) => {
    // A dataset version's time is when the test published it: the one figure not fixed by the seed.
    const stable = (text: string) =>
      text
        .replace(/2\d{3}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d{3}Z?$/gm, '<published>')
        .replace(/"updatedAt": \d+/g, '"updatedAt": 0');
    const table = await weft(argv);
    expect(table.err).toBe('');
    expect(table.code).toBe(ExitCode.ok);
    expect(name === 'datasets' ? stable(table.out) : table.out).toMatchSnapshot(`${name} table`);
    const csv = (await weft([...argv, '--format', 'csv'])).out;
    expect(name === 'datasets' ? stable(csv) : csv).toMatchSnapshot(`${name} csv`);
    const json = (await weft([...argv, '--json'])).out;
    expect(JSON.parse(name === 'datasets' ? stable(json) : json)).toMatchSnapshot(`${name} json`);
  });

  it('weft call shows an LLM call as a conversation and its values readably', async () => {
    const { code, out } = await weft(['call', shopId(2)]);
    expect(code).toBe(ExitCode.ok);
    expect(out).toMatchSnapshot();
    expect(out).toContain(
      'conversation\n  system: You approve refunds.\n  user: Order A-1001 arrived damaged.\n  assistant: Refund approved for A-1001.',
    );
  });

  it('weft call shows feedback, attributes and the error, finds the project by id, and --json is the API call', async () => {
    const { out } = await weft(['call', shopId(3)], two.url);
    expect(out).toContain('project  beta');
    expect(out).toContain('error    TimeoutError: payments service timed out');
    const mine = await weft(['call', shopId(3)]);
    expect(mine.out).toContain('  thumbs = false  still waiting');
    expect(mine.out).toContain('attributes\n  env: staging\n  tier: 1\n  user.id: u-bob\n  tags:\n    - eu');
    const json = JSON.parse((await weft(['call', shopId(3), '--json'])).out);
    expect(json).toMatchObject({ id: shopId(3), feedback: [{ name: 'thumbs', value: false }] });
  });

  it('weft call exits 4 for an id no project has', async () => {
    const { code, err } = await weft(['call', shopId(999)]);
    expect(code).toBe(ExitCode.notFound);
    expect(err).toMatch(/No call 01a20000-0000-7000-8000-0000000003e7 in any project of the server at/);
  });
});
