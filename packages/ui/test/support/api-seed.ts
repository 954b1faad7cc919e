import { randomUUID } from 'node:crypto';
import { type CallComplete, type CallItem, routes } from '@weft/protocol';

/**
 * Seeds the server through its public HTTP API (JSON bodies, digests from
 * @weft/protocol), the way any client could: for exact shapes the SDK would
 * not produce on demand (a call left running, a 5,000-call trace, 120 roots
 * a second apart) and for reading back what the SDK recorded.
 */
export class ApiSeeder {
  readonly #url: string;
  readonly #token: string | undefined;
  readonly project: string;

  constructor(url: string, project: string, token?: string) {
    this.#url = url;
    this.project = project;
    this.#token = token;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    const response = await fetch(this.#url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} → ${response.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  async calls(items: CallItem[]): Promise<void> {
    for (let i = 0; i < items.length; i += 5_000) {
      await this.post(routes.callBatch(), { project: this.project, items: items.slice(i, i + 5_000) });
    }
  }
}

/** A finished call record, ready for a batch. */
export function completeCall(fields: {
  id?: string;
  traceId: string;
  parentId: string | null;
  opName: string;
  displayName?: string;
  startedAt: number;
  endedAt: number;
  inputs?: Record<string, unknown>;
  output?: unknown;
  exception?: CallComplete['exception'];
  summary?: CallComplete['summary'];
}): CallComplete & { id: string } {
  return {
    type: 'complete',
    inputs: {},
    ...fields,
    id: fields.id ?? randomUUID(),
  };
}

/** An evaluation run as the test finds it: its call, trace and row calls by row index. */
export interface SeededRun {
  id: string;
  traceId: string;
  rowCallIds: string[];
}
