import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallItem, CallQueryParsed } from '@weft/protocol';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SqliteStorage } from './sqlite-storage.js';

async function dbPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-term-sets-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'weft.db');
}

const id = (n: number) => `0190a5f0-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A call as `spanToCall` makes one of a GenAI span: resource, scope, kind, operation and model among its attributes. */
function spanCall(n: number, service: string, model: string): CallItem {
  return {
    type: 'complete',
    id: id(n),
    traceId: id(n),
    parentId: null,
    opName: `chat ${model}`,
    startedAt: 1_700_000_000_000 + n,
    endedAt: 1_700_000_000_100 + n,
    inputs: { messages: [] },
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': model,
      'otel.kind': 'client',
      'otel.scope': { name: 'genai-lib' },
      'otel.resource': { 'service.name': service },
      env: 'prod',
    },
  };
}

async function found(storage: SqliteStorage, attributes: Record<string, string>): Promise<string[]> {
  const query = { project: 'p', limit: 100, sort: { field: 'startedAt', direction: 'asc' }, attributes };
  return (await storage.queryCalls(query as CallQueryParsed)).calls.map((call) => call.id);
}

describe.each([
  { writerThread: false, label: 'on the calling thread' },
  { writerThread: true, label: 'with the writer thread' },
])('term sets, $label', ({ writerThread }) => {
  it('index the shared terms of each call as one row, and filters on them follow a re-sent call', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [spanCall(1, 'checkout', 'gpt-4o'), spanCall(2, 'search', 'gpt-4o')]);
    expect(await found(storage, { 'otel.resource.service.name': 'checkout' })).toEqual([id(1)]);
    expect(await found(storage, { 'gen_ai.request.model': 'gpt-4o', env: 'prod' })).toEqual([id(1), id(2)]);

    await storage.ingestCalls('p', [spanCall(1, 'checkout', 'gpt-4o-mini')]);
    expect(await found(storage, { 'gen_ai.request.model': 'gpt-4o' })).toEqual([id(2)]);
    expect(await found(storage, { 'gen_ai.request.model': 'gpt-4o-mini' })).toEqual([id(1)]);
    expect(await found(storage, { 'otel.resource.service.name': 'checkout', 'otel.kind': 'client' })).toEqual(
      [id(1)],
    );
    await storage.close();

    const raw = new Database(path, { readonly: true });
    onTestFinished(() => {
      raw.close();
    });
    // `env` and the set's row, per call; three distinct sets of 5 terms each, stored once.
    expect(raw.prepare('SELECT COUNT(*) FROM call_attributes').pluck().get()).toBe(4);
    expect(raw.prepare('SELECT COUNT(*) FROM call_term_sets').pluck().get()).toBe(15);
  });

  it('go with the last call that names them when traces are deleted, and stay while another call names them', async () => {
    const path = await dbPath();
    const storage = new SqliteStorage({ path, writerThread });
    onTestFinished(() => storage.close());
    await storage.ingestCalls('p', [spanCall(1, 'checkout', 'gpt-4o'), spanCall(2, 'checkout', 'gpt-4o')]);
    await storage.ingestCalls('p', [spanCall(3, 'search', 'gpt-4o-mini')]);
    const sets = () => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw.prepare('SELECT DISTINCT value FROM call_term_sets ORDER BY value').pluck().all();
      } finally {
        raw.close();
      }
    };
    expect(sets()).toEqual(['chat', 'checkout', 'client', 'genai-lib', 'gpt-4o', 'gpt-4o-mini', 'search']);

    await storage.lifecycle.deleteTraces('p', [id(1), id(3)], { secure: false });
    // Call 2 still names the checkout set; the search set had only call 3.
    expect(sets()).toEqual(['chat', 'checkout', 'client', 'genai-lib', 'gpt-4o']);
    expect(await found(storage, { 'otel.resource.service.name': 'checkout' })).toEqual([id(2)]);
    expect(await found(storage, { 'otel.resource.service.name': 'search' })).toEqual([]);

    await storage.lifecycle.deleteTraces('p', [id(2)], { secure: false });
    expect(sets()).toEqual([]);
  });
});
