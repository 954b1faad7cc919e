import { ApiError } from './api-error.js';
import type {
  AlertHistoryResponse,
  AlertStatus,
  Call,
  Dashboard,
  EvaluatorActivity,
  EvaluatorStatus,
  CallQuery,
  CallQueryResponse,
  MetricsQuery,
  MetricsQueryResponse,
  DatasetFromCalls,
  DatasetFromCallsResponse,
  Feedback,
  FeedbackCreate,
  ObjectLabel,
  ObjectLabelsResponse,
  ObjectListResponse,
  ProjectListResponse,
  ProjectSettings,
  ProjectSettingsResponse,
  SessionQuery,
  SessionQueryResponse,
  ObjectRead,
  ObjectVersionsResponse,
  ObjectCreateResponse,
  PlaygroundEvent,
  PlaygroundProvidersResponse,
  PlaygroundRun,
  PromptSave,
  SavedDashboard,
  TableRowsResponse,
  TraceDiffQuery,
  TraceCallsResponse,
  TraceColumnsResponse,
  TraceDiffResponse,
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

  /** Two traces aligned step by step, with where they first diverge. */
  traceDiff(query: TraceDiffQuery, signal?: AbortSignal): Promise<TraceDiffResponse> {
    return this.#request('POST', routes.traceDiff(), query, signal);
  }

  /** Every call of a trace in start order, light: no inputs, output or feedback (`readCall` has them). */
  traceCalls(project: string, traceId: string, signal?: AbortSignal): Promise<TraceCallsResponse> {
    return this.#request('GET', routes.traceCalls(project, traceId), undefined, signal);
  }

  /**
   * `traceCalls` as one array per field, each shared value once (what the
   * trace view loads: a few MB for 25,000 calls where `traceCalls` is 11);
   * `callsOfTraceColumns` gives the calls back.
   */
  traceColumns(project: string, traceId: string, signal?: AbortSignal): Promise<TraceColumnsResponse> {
    return this.#request('GET', routes.traceColumns(project, traceId), undefined, signal);
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

  queryMetrics(query: MetricsQuery, signal?: AbortSignal): Promise<MetricsQueryResponse> {
    return this.#request('POST', routes.metricsQuery(), query, signal);
  }

  listEvaluators(project: string, signal?: AbortSignal): Promise<{ evaluators: EvaluatorStatus[] }> {
    return this.#request('GET', routes.evaluatorList(project), undefined, signal);
  }

  evaluatorActivity(project: string, name: string, signal?: AbortSignal): Promise<EvaluatorActivity> {
    return this.#request('GET', routes.evaluatorActivity(project, name), undefined, signal);
  }

  listDashboards(project: string, signal?: AbortSignal): Promise<{ dashboards: SavedDashboard[] }> {
    return this.#request('GET', routes.dashboardList(project), undefined, signal);
  }

  saveDashboard(dashboard: Dashboard): Promise<SavedDashboard> {
    return this.#request('POST', routes.dashboardPut(), dashboard);
  }

  listAlerts(project: string, signal?: AbortSignal): Promise<{ alerts: AlertStatus[] }> {
    return this.#request('GET', routes.alertList(project), undefined, signal);
  }

  /** Mutes an alert until `until` (epoch ms), or unmutes it (`null`): states are still tracked, nothing is delivered. */
  muteAlert(project: string, name: string, until: number | null): Promise<AlertStatus> {
    return this.#request('POST', routes.alertMute(), { project, name, until });
  }

  alertHistory(project: string, name: string, signal?: AbortSignal): Promise<AlertHistoryResponse> {
    return this.#request('GET', routes.alertHistory(project, name), undefined, signal);
  }

  projectSettings(project: string, signal?: AbortSignal): Promise<ProjectSettingsResponse> {
    return this.#request('GET', routes.projectSettings(project), undefined, signal);
  }

  /** Replaces the project's retention and keep rules (the server takes the admin token only). */
  saveProjectSettings(project: string, settings: ProjectSettings): Promise<ProjectSettingsResponse> {
    return this.#request('PUT', routes.projectSettings(project), settings);
  }

  playgroundProviders(project: string, signal?: AbortSignal): Promise<PlaygroundProvidersResponse> {
    return this.#request('GET', routes.playgroundProviders(project), undefined, signal);
  }

  savePrompt(request: PromptSave): Promise<ObjectCreateResponse & { label?: string }> {
    return this.#request('POST', routes.promptSave(), request);
  }

  /**
   * Runs a playground request, calling `onEvent` with each line of the
   * streamed answer (text pieces, tool calls, then `done` or `error`) as it
   * arrives. Resolves when the stream ends.
   */
  async runPlayground(
    run: PlaygroundRun,
    onEvent: (event: PlaygroundEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const response = await this.#fetch('POST', routes.playgroundRun(), run, signal);
    const reader = response.body?.getReader();
    if (reader === undefined) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== '') onEvent(JSON.parse(line) as PlaygroundEvent);
        newline = buffer.indexOf('\n');
      }
      if (done) return;
    }
  }

  /** Every call matching `query`, following cursors; `onPage` sees each page as it arrives, with the calls so far. */
  async queryAllCalls(
    query: CallQuery,
    signal?: AbortSignal,
    onPage?: (loaded: number, calls: readonly Call[]) => void,
  ): Promise<Call[]> {
    const calls: Call[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.queryCalls({ ...query, limit: 1_000, ...(cursor ? { cursor } : {}) }, signal);
      calls.push(...page.calls);
      onPage?.(calls.length, calls);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return calls;
  }

  async #request<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    return (await (await this.#fetch(method, path, body, signal)).json()) as T;
  }

  /** A successful response to the request (a 401 asks for the token and retries); anything else throws `ApiError`. */
  async #fetch(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Response> {
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
        throw new ApiError(0, undefined, `Cannot reach the Weft server: ${(error as Error).message}`);
      }
      if (response.status === 401) {
        // A second 401 right after the user answered means the token was wrong.
        await this.#tokens.ask(rejected || token !== undefined);
        rejected = true;
        continue;
      }
      if (!response.ok) throw await toApiError(response);
      return response;
    }
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    return new ApiError(response.status, body.error?.code, body.error?.message ?? `HTTP ${response.status}`);
  } catch {
    return new ApiError(response.status, undefined, `HTTP ${response.status} ${response.statusText}`);
  }
}
