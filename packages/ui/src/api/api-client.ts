import { ApiError } from './api-error.js';
import type {
  Call,
  CallQuery,
  CallQueryResponse,
  DatasetFromCalls,
  DatasetFromCallsResponse,
  Feedback,
  FeedbackCreate,
  ObjectLabel,
  ObjectLabelsResponse,
  ObjectListResponse,
  ProjectListResponse,
  SessionQuery,
  SessionQueryResponse,
  ObjectRead,
  ObjectVersionsResponse,
  TableRowsResponse,
} from './protocol.js';
import { routes } from './protocol.js';
import type { TokenStore } from './token-store.js';

/**
 * The UI's only way to the server: the public read API, JSON in and out, so
 * anything the UI shows a script could fetch too. A 401 asks the user for the
 * bearer token (once for all requests waiting) and retries.
 */
export class ApiClient {
  readonly #base: string;
  readonly #tokens: TokenStore;

  constructor(base: string, tokens: TokenStore) {
    this.#base = base.replace(/\/$/, '');
    this.#tokens = tokens;
  }

  queryCalls(query: CallQuery, signal?: AbortSignal): Promise<CallQueryResponse> {
    return this.#request('POST', routes.callQuery(), query, signal);
  }

  readCall(project: string, id: string, signal?: AbortSignal): Promise<Call> {
    return this.#request('GET', routes.call(project, id), undefined, signal);
  }

  listObjects(project: string, signal?: AbortSignal): Promise<ObjectListResponse> {
    return this.#request('GET', routes.objectList(project), undefined, signal);
  }

  objectVersions(project: string, name: string, signal?: AbortSignal): Promise<ObjectVersionsResponse> {
    return this.#request('GET', routes.objectVersions(project, name), undefined, signal);
  }

  readObject(project: string, name: string, version: string, signal?: AbortSignal): Promise<ObjectRead> {
    return this.#request('GET', routes.objectRead(project, name, version), undefined, signal);
  }

  tableRows(
    project: string,
    digest: string,
    offset: number,
    limit: number,
    signal?: AbortSignal,
  ): Promise<TableRowsResponse> {
    const path = `${routes.tableRows(project, digest)}?offset=${offset}&limit=${limit}`;
    return this.#request('GET', path, undefined, signal);
  }

  listProjects(signal?: AbortSignal): Promise<ProjectListResponse> {
    return this.#request('GET', routes.projectList(), undefined, signal);
  }

  giveFeedback(feedback: FeedbackCreate): Promise<Feedback> {
    return this.#request('POST', routes.feedbackCreate(), feedback);
  }

  querySessions(query: SessionQuery, signal?: AbortSignal): Promise<SessionQueryResponse> {
    return this.#request('POST', routes.sessionQuery(), query, signal);
  }

  objectLabels(project: string, name: string, signal?: AbortSignal): Promise<ObjectLabelsResponse> {
    return this.#request('GET', routes.objectLabels(project, name), undefined, signal);
  }

  setObjectLabel(project: string, name: string, label: string, version: number): Promise<ObjectLabel> {
    return this.#request('POST', routes.objectLabelSet(), { project, name, label, version });
  }

  datasetFromCalls(request: DatasetFromCalls): Promise<DatasetFromCallsResponse> {
    return this.#request('POST', routes.datasetFromCalls(), request);
  }

  /** Every call matching `query`, following cursors; `onPage` sees progress. */
  async queryAllCalls(
    query: CallQuery,
    signal?: AbortSignal,
    onPage?: (loaded: number) => void,
  ): Promise<Call[]> {
    const calls: Call[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queryCalls({ ...query, limit: 1_000, ...(cursor ? { cursor } : {}) }, signal);
      calls.push(...page.calls);
      onPage?.(calls.length);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return calls;
  }

  async #request<T>(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    let rejected = false;
    for (;;) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const token = this.#tokens.token;
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      let response: Response;
      try {
        response = await fetch(this.#base + path, {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          signal: signal ?? null,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new ApiError(0, 'WEFT_NETWORK', `Cannot reach the Weft server: ${(error as Error).message}`);
      }
      if (response.status === 401) {
        // A second 401 right after the user answered means the token was wrong.
        await this.#tokens.ask(rejected || token !== undefined);
        rejected = true;
        continue;
      }
      if (!response.ok) throw await toApiError(response);
      return (await response.json()) as T;
    }
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(
      response.status,
      body.error?.code ?? 'WEFT_HTTP',
      body.error?.message ?? `HTTP ${response.status}`,
    );
  } catch {
    return new ApiError(response.status, 'WEFT_HTTP', `HTTP ${response.status} ${response.statusText}`);
  }
}
