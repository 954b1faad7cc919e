import { type FileHandle, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluationRowResult } from '@weft/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoint } from './checkpoint.js';

const result = (rowIndex: number, output: unknown = `out ${rowIndex}`, trial = 0): EvaluationRowResult => ({
  rowIndex,
  trial,
  output,
  scores: { exact: rowIndex % 2 === 0 },
  latencyMs: 1,
});

interface Counts {
  read: number;
  write: number;
  truncate: number;
  stat: number;
  datasync: number;
  events: string[];
}

/** Opens real files through handles that count what is done to them. */
function countingOpener(options: { failWrite?: (n: number) => boolean } = {}) {
  const counts: Counts = { read: 0, write: 0, truncate: 0, stat: 0, datasync: 0, events: [] };
  const openFile = async (path: string, flags: string): Promise<FileHandle> => {
    const fh = await open(path, flags);
    return new Proxy(fh, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const name = String(prop);
        return async (...args: unknown[]) => {
          if (['read', 'readFile', 'readLines', 'readv', 'createReadStream'].includes(name)) counts.read++;
          if (name === 'stat') counts.stat++;
          if (name === 'truncate') counts.truncate++;
          if (name === 'datasync' || name === 'sync') counts.datasync++;
          if (name === 'write') {
            counts.write++;
            if (options.failWrite?.(counts.write)) {
              // Half the line reaches the disk, then the device fails.
              const [buffer, offset, length, position] = args as [Buffer, number, number, number];
              await target.write(buffer, offset, Math.floor(length / 2), position);
              throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
            }
          }
          counts.events.push(name);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  };
  return { counts, openFile };
}

function reset(counts: Counts): void {
  counts.read = counts.write = counts.truncate = counts.stat = counts.datasync = 0;
  counts.events.length = 0;
}

describe('Checkpoint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-checkpoint-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one line per row result, in append order, and resumes them', async () => {
    const path = join(dir, 'run.jsonl');
    const cp = await Checkpoint.open(path);
    const outcomes = await Promise.all([0, 1, 2, 3, 4].map((i) => cp.append(result(i))));
    expect(outcomes.every((o) => o.status === 'written')).toBe(true);
    await cp.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as EvaluationRowResult).rowIndex)).toEqual([0, 1, 2, 3, 4]);

    const again = await Checkpoint.open(path, { resume: true });
    expect(again.resumed.results.map((r) => r.rowIndex).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(again.isFinished(3, 0)).toBe(true);
    expect(again.isFinished(3, 1)).toBe(false);
    expect(again.isFinished(5, 0)).toBe(false);
    await again.close();
  });

  it('truncates a torn last line once at resume', async () => {
    const path = join(dir, 'run.jsonl');
    const good = [0, 1, 2].map((i) => `${JSON.stringify(result(i))}\n`).join('');
    await writeFile(path, `${good}{"rowIndex":3,"tri`);
    const { counts, openFile } = countingOpener();

    const cp = await Checkpoint.open(path, { resume: true, openFile });
    expect(cp.resumed.tornBytes).toBe('{"rowIndex":3,"tri'.length);
    expect(cp.resumed.results).toHaveLength(3);
    expect(counts.truncate).toBe(1);
    expect((await stat(path)).size).toBe(Buffer.byteLength(good));
    expect(cp.isFinished(3, 0)).toBe(false);
    await cp.append(result(3));
    await cp.append(result(4));
    await cp.close();
    expect(counts.truncate).toBe(1);

    reset(counts);
    const again = await Checkpoint.open(path, { resume: true, openFile });
    expect(again.resumed.tornBytes).toBe(0);
    expect(again.resumed.corruptLines).toEqual([]);
    expect(again.resumed.results.map((r) => r.rowIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(counts.truncate).toBe(0);
    await again.close();
  });

  it('appends without reading the file: a 100 MB checkpoint costs the same reads (zero) as an empty one', async () => {
    const big = join(dir, 'big.jsonl');
    const fh = await open(big, 'w');
    const mb = 'x'.repeat(1 << 20);
    for (let i = 0; i < 100; i++) await fh.write(`${JSON.stringify(result(i, mb))}\n`);
    await fh.close();
    expect((await stat(big)).size).toBeGreaterThan(100 * (1 << 20));

    const appendCost = async (path: string): Promise<Counts> => {
      const { counts, openFile } = countingOpener();
      const cp = await Checkpoint.open(path, { resume: true, openFile });
      reset(counts); // the resume scan is the one read, at open
      for (let i = 1_000; i < 1_100; i++) await cp.append(result(i));
      await cp.close();
      return counts;
    };
    const bigCost = await appendCost(big);
    const emptyCost = await appendCost(join(dir, 'empty.jsonl'));
    expect(bigCost.read).toBe(0);
    expect(bigCost.stat).toBe(0);
    expect(bigCost).toEqual({ ...emptyCost, events: bigCost.events });
    expect(bigCost.events.filter((e) => e !== 'datasync' && e !== 'close')).toEqual(
      emptyCost.events.filter((e) => e !== 'datasync' && e !== 'close'),
    );
    expect(bigCost.write).toBe(100);
  });

  it('reports a failed write for that row only, cuts its partial bytes, and keeps writing later rows', async () => {
    const path = join(dir, 'run.jsonl');
    const { counts, openFile } = countingOpener({ failWrite: (n) => n === 2 });
    const cp = await Checkpoint.open(path, { openFile });
    const outcomes = [];
    for (const i of [0, 1, 2]) outcomes.push(await cp.append(result(i)));
    await cp.close();
    expect(outcomes.map((o) => o.status)).toEqual(['written', 'failed', 'written']);
    const failed = outcomes[1];
    expect(failed?.status === 'failed' && failed.error.code).toBe('WEFT_CHECKPOINT_WRITE_FAILED');
    expect(failed?.status === 'failed' && failed.error.systemCode).toBe('ENOSPC');
    expect(counts.truncate).toBe(1);
    expect(cp.stats).toMatchObject({ written: 2, failed: 1 });

    const again = await Checkpoint.open(path, { resume: true });
    expect(again.resumed.corruptLines).toEqual([]);
    expect(again.resumed.results.map((r) => r.rowIndex)).toEqual([0, 2]);
    await again.close();
  });

  it('writes a value JSON cannot encode in its safe form, never as a failed row (regression: BigInt output)', async () => {
    const path = join(dir, 'run.jsonl');
    const cp = await Checkpoint.open(path);
    const cyclic: Record<string, unknown> = { n: 10n };
    cyclic.self = cyclic;
    expect(await cp.append(result(0, cyclic))).toEqual({ status: 'written' });
    expect((await cp.append(result(1))).status).toBe('written');
    await cp.close();
    const [first] = (await readFile(path, 'utf8')).split('\n').map((l) => (l ? JSON.parse(l) : undefined));
    expect(first.output).toMatchObject({ n: { _weft: 'bigint', value: '10' }, self: { _weft: 'cycle' } });
  });

  it('skips a corrupt complete line so its row runs again, keeping the rest', async () => {
    const path = join(dir, 'run.jsonl');
    await writeFile(
      path,
      `${JSON.stringify(result(0))}\nnot json\n{"rowIndex":-1}\n${JSON.stringify(result(2))}\n`,
    );
    const cp = await Checkpoint.open(path, { resume: true });
    expect(cp.resumed.corruptLines).toEqual([2, 3]);
    expect(cp.resumed.tornBytes).toBe(0);
    expect(cp.resumed.results.map((r) => r.rowIndex)).toEqual([0, 2]);
    await cp.close();
  });

  it("keeps a row's usage for the resumed run's totals, and drops a malformed usage but not its row", async () => {
    const path = join(dir, 'run.jsonl');
    const usage = {
      'gpt-4o': { requests: 1, inputTokens: 12, outputTokens: 7, totalTokens: 19, costUsd: 0.0001 },
    };
    await writeFile(
      path,
      `${JSON.stringify({ ...result(0), usage })}\n${JSON.stringify({ ...result(1), usage: 'lots' })}\n`,
    );
    const cp = await Checkpoint.open(path, { resume: true });
    expect(cp.resumed.corruptLines).toEqual([]);
    expect(cp.resumed.results.map((r) => [r.rowIndex, r.usage])).toEqual([
      [0, usage],
      [1, undefined],
    ]);
    await cp.close();
  });

  it('syncs each row to disk before its append resolves', async () => {
    const { counts, openFile } = countingOpener();
    const cp = await Checkpoint.open(join(dir, 'run.jsonl'), { openFile });
    reset(counts);
    await cp.append(result(0));
    expect(counts.events).toEqual(['write', 'datasync']);
    await cp.append(result(1));
    expect(counts.events).toEqual(['write', 'datasync', 'write', 'datasync']);
    await cp.close();
  });

  it('starts empty without resume, and refuses appends after close', async () => {
    const path = join(dir, 'run.jsonl');
    await writeFile(path, `${JSON.stringify(result(0))}\n`);
    const cp = await Checkpoint.open(path);
    expect(cp.resumed.results).toEqual([]);
    await cp.close();
    await cp.close();
    expect((await stat(path)).size).toBe(0);
    const outcome = await cp.append(result(1));
    expect(outcome.status).toBe('failed');
  });

  it('fails to open with a typed error naming the path', async () => {
    const path = join(dir, 'missing-folder', 'run.jsonl');
    await expect(Checkpoint.open(path)).rejects.toMatchObject({ code: 'WEFT_CHECKPOINT_OPEN_FAILED', path });
  });

  it("redacts the output by key and scrubs the row's redacted values from the error text", async () => {
    const path = join(dir, 'run.jsonl');
    const cp = await Checkpoint.open(path, { values: { redactKeys: new Set(['password', 'ssn']) } });
    const failed: EvaluationRowResult = {
      ...result(0, { answer: 'ok', ssn: '123-45-6789' }),
      error: {
        name: 'Error',
        message: 'login hunter2 refused',
        stack: 'Error: login hunter2\n    at x',
        cause: { name: 'Error', message: 'hunter2' },
      },
    };
    expect(await cp.append(failed, { inputs: { user: 'ann', password: 'hunter2' } })).toEqual({
      status: 'written',
    });
    await cp.close();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('123-45-6789');
    const line = JSON.parse(text) as EvaluationRowResult;
    expect(line.output).toEqual({ answer: 'ok', ssn: '[REDACTED]' });
    expect(line.error).toEqual({
      name: 'Error',
      message: 'login [REDACTED] refused',
      stack: 'Error: login [REDACTED]\n    at x',
      cause: { name: 'Error', message: '[REDACTED]' },
    });
  });

  it('applies the user redact function to values and free text', async () => {
    const path = join(dir, 'run.jsonl');
    const redact = (key: string, value: unknown) =>
      key === 'apiToken' || (key === 'message' && String(value).includes('sk-'));
    const cp = await Checkpoint.open(path, { values: { redact } });
    await cp.append({
      ...result(0, { apiToken: 'abcd', text: 'fine' }),
      error: { name: 'E', message: 'bad key sk-1' },
    });
    await cp.close();
    const line = JSON.parse(await readFile(path, 'utf8')) as EvaluationRowResult;
    expect(line.output).toEqual({ apiToken: '[REDACTED]', text: 'fine' });
    expect(line.error?.message).toBe('[REDACTED]');
  });
});
