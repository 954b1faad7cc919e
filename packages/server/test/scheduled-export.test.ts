import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '@weft/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_STATE_FILE, hivePartition, ScheduledExport } from '../src/lifecycle/index.js';
import type { Storage } from '../src/storage/index.js';
import { callIdOf, completeOf } from './support/calls.js';
import { openTestStorage, testStorageKind } from './support/test-storage.js';

/*
 * The scheduled export (issue 28): one file per project and ended UTC day,
 * in a Hive layout, resumable after a crash.
 */
const DAY_MS = 86_400_000;
const DAY0 = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;
const project = 'daily';
let dir: string;
let storage: Storage;

beforeAll(async () => {
  dir = await tempDir();
  storage = await openTestStorage(dir);
  // Days 0, 1 and 2: 3, 2 and 1 calls.
  const items = [0, 0, 0, 1, 1, 2].map((day, n) => {
    const startedAt = DAY0 + day * DAY_MS + (n + 1) * HOUR;
    return completeOf(n, { id: callIdOf(n, 3), traceId: callIdOf(n, 3), startedAt, endedAt: startedAt + 5 });
  });
  await storage.ingestCalls(project, items);
});
afterAll(async () => {
  await storage.close();
  await rm(dir, { recursive: true, force: true });
});

function exporter(out: string): ScheduledExport {
  return new ScheduledExport({ storage, dir: out, format: 'jsonl', settleMs: HOUR });
}

function fileOf(out: string, day: number): string {
  return join(out, hivePartition(project, DAY0 + day * DAY_MS), 'calls.jsonl');
}

async function startsIn(file: string): Promise<number[]> {
  const text = await readFile(file, 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line).startedAt as number);
}

describe(`scheduled export (${testStorageKind()})`, () => {
  it('writes one file per ended, settled day in a Hive layout, and nothing for the open day', async () => {
    const out = join(dir, 'days');
    // Day 2 began 2 h ago: it is still open; day 1 ended and settled.
    const written = await exporter(out).run(DAY0 + 2 * DAY_MS + 2 * HOUR);
    expect(written).toEqual([fileOf(out, 0), fileOf(out, 1)]);
    expect(await startsIn(fileOf(out, 0))).toEqual([1, 2, 3].map((h) => DAY0 + h * HOUR));
    expect(await startsIn(fileOf(out, 1))).toEqual([4, 5].map((h) => DAY0 + DAY_MS + h * HOUR));
    const state = JSON.parse(await readFile(join(out, EXPORT_STATE_FILE), 'utf8'));
    expect(state.exportedThrough).toEqual({ [project]: '2026-06-02' });
    // A later run writes only the day that ended since.
    expect(await exporter(out).run(DAY0 + 3 * DAY_MS + 2 * HOUR)).toEqual([fileOf(out, 2)]);
  });

  it('after a crash writes the unfinished day again, whole, and no day twice', async () => {
    const out = join(dir, 'crashed');
    await exporter(out).run(DAY0 + 2 * DAY_MS + 2 * HOUR);
    // The crash: day 1's file half-written under its partial name and its day not recorded.
    await writeFile(`${fileOf(out, 1)}.partial`, '{"torn":');
    await writeFile(
      join(out, EXPORT_STATE_FILE),
      JSON.stringify({ version: 1, exportedThrough: { [project]: '2026-06-01' } }),
    );
    const written = await exporter(out).run(DAY0 + 3 * DAY_MS + 2 * HOUR);
    expect(written).toEqual([fileOf(out, 1), fileOf(out, 2)]);
    expect(await startsIn(fileOf(out, 1))).toEqual([4, 5].map((h) => DAY0 + DAY_MS + h * HOUR));
    await expect(readFile(`${fileOf(out, 1)}.partial`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
