import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeMsgpack } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { Outbox } from '../outbox/index.js';
import { encodeOutboxRecord } from '../transport/outbox-records.js';
import { replayOutbox } from './replay-outbox.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'weft-outbox-replay-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const quiet = { fsync: 'never', onWarning: () => {} } as const;

/** Call records as the SDK spills them, for `project`. */
async function fill(project: string, count: number): Promise<void> {
  const outbox = await Outbox.open({ dir: join(root, project), ...quiet });
  try {
    const records = Array.from({ length: count }, (_, i) =>
      encodeOutboxRecord(project, encodeMsgpack({ type: 'end', id: `id-${i}`, endedAt: i })),
    );
    await outbox.append(records);
  } finally {
    await outbox.close();
  }
}

async function downUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const segmentCount = async (project: string) =>
  (await readdir(join(root, project))).filter((name) => name.endsWith('.seg')).length;

describe('replayOutbox', () => {
  it('refuses with OutboxInUseError when a live process holds any folder, and touches none', async () => {
    await fill('alpha', 5);
    await fill('beta', 5);
    const held = await Outbox.open({ dir: join(root, 'beta'), ...quiet });
    onTestFinished(() => held.close());

    const error = await replayOutbox({ dir: root, url: await downUrl() }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'WEFT_OUTBOX_IN_USE',
      ownerPid: process.pid,
      dir: join(root, 'beta'),
      message: expect.stringContaining(`in use by live process ${process.pid}`),
    });
    // alpha was opened first and released again: its lock is free and its records are all there.
    const alpha = await Outbox.open({ dir: join(root, 'alpha'), ...quiet });
    expect(alpha.stats.records).toBe(5);
    await alpha.close();
  });

  it('stops as unreachable when nothing answers, keeping every record of every folder', async () => {
    await fill('alpha', 7);
    await fill('beta', 4);
    const url = await downUrl();
    const result = await replayOutbox({ dir: root, url });
    expect(result).toMatchObject({
      sent: 0,
      remaining: 11,
      folders: [
        { project: 'alpha', sent: 0, remaining: 7 },
        { project: 'beta', sent: 0, remaining: 4 },
      ],
      stopped: { reason: 'unreachable', project: 'alpha', statusCode: undefined },
    });
    expect(result.stopped?.error.code).toBe('WEFT_SERVER_UNREACHABLE');
    expect(await segmentCount('alpha')).toBe(1);
    expect(await segmentCount('beta')).toBe(1);
  });

  it.each([
    { statusCode: 503, reason: 'server-error' },
    { statusCode: 401, reason: 'unauthorized' },
    { statusCode: 403, reason: 'unauthorized' },
    { statusCode: 404, reason: 'server-error' },
  ] as const)(
    'stops as $reason when the server answers $statusCode, keeping the records',
    async ({ statusCode, reason }) => {
      await fill('alpha', 6);
      // A real HTTP server that refuses every request the same way.
      const server = createHttpServer((request, response) => {
        request.resume();
        response.writeHead(statusCode, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 'WEFT_TEST', message: `answered ${statusCode}` } }));
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const { port } = server.address() as { port: number };

      const result = await replayOutbox({ dir: root, url: `http://127.0.0.1:${port}`, onWarning: () => {} });
      expect(result).toMatchObject({
        sent: 0,
        remaining: 6,
        stopped: { reason, statusCode, project: 'alpha' },
      });
      expect(await segmentCount('alpha')).toBe(1);
    },
  );

  it('has nothing to do for a missing folder', async () => {
    expect(await replayOutbox({ dir: join(root, 'missing'), url: await downUrl() })).toEqual({
      sent: 0,
      remaining: 0,
      folders: [],
      stopped: undefined,
    });
  });

  it('names a bad option', async () => {
    await expect(replayOutbox({ dir: root, url: 'localhost:7420' })).rejects.toMatchObject({
      code: 'WEFT_INVALID_OPTIONS',
      message: expect.stringContaining('`url`'),
    });
  });
});
