const enc = encodeURIComponent;

/**
 * Every HTTP route of the trace server, as path builders, so SDK, CLI, UI and
 * server agree on one spelling. Bodies are the schemas named beside each.
 */
export const routes = {
  /** GET → `healthResponse` */
  health: () => '/health',
  /** GET → `versionResponse` */
  version: () => '/version',
  /** POST `callBatch` → `callBatchResponse` */
  callBatch: () => '/v1/calls/batch',
  /** POST `callQuery` → `callQueryResponse` */
  callQuery: () => '/v1/calls/query',
  /** POST `valueRead` → `valueReadResponse`: deduplicated values by digest, as stored */
  valueRead: () => '/v1/values/read',
  /** DELETE `callDeleteRequest` → `callDeleteResponse` (admin token only) */
  callDelete: () => '/v1/calls',
  /** GET `callExportParams` as query parameters → JSON Lines or Parquet, streamed */
  callExport: () => '/v1/calls/export',
  /** GET → `call` */
  call: (project: string, id: string) => `/v1/calls/${enc(project)}/${enc(id)}`,
  /** POST `objectCreate` → `objectCreateResponse` */
  objectCreate: () => '/v1/objects',
  /** GET → `objectListResponse` */
  objectList: (project: string) => `/v1/objects/${enc(project)}`,
  /** GET → `objectVersionsResponse` */
  objectVersions: (project: string, name: string) => `/v1/objects/${enc(project)}/${enc(name)}/versions`,
  /** GET → `objectRead`; `version` is a digest, `latest` or `v<N>` */
  objectRead: (project: string, name: string, version: string) =>
    `/v1/objects/${enc(project)}/${enc(name)}/versions/${enc(version)}`,
  /** POST `objectLabelSet` → `objectLabel` (sets or moves a label) */
  objectLabelSet: () => '/v1/objects/labels',
  /** GET → `objectLabelsResponse` */
  objectLabels: (project: string, name: string) => `/v1/objects/${enc(project)}/${enc(name)}/labels`,
  /** POST `feedbackCreate` → `feedback` (idempotent by `id`) */
  feedbackCreate: () => '/v1/feedback',
  /** GET → `feedbackListResponse`: a call's feedback, oldest first (empty while none) */
  feedbackList: (project: string, callId: string) => `/v1/feedback/${enc(project)}/${enc(callId)}`,
  /** POST `sessionQuery` → `sessionQueryResponse` */
  sessionQuery: () => '/v1/sessions/query',
  /** POST `datasetFromCalls` → `datasetFromCallsResponse` */
  datasetFromCalls: () => '/v1/datasets/from-calls',
  /** GET → `projectListResponse` */
  projectList: () => '/v1/projects',
  /** GET → `projectSettingsResponse`; PUT `projectSettings` (admin token only) → `projectSettingsResponse` */
  projectSettings: (project: string) => `/v1/projects/${enc(project)}/settings`,
  /** POST (no body) → `retentionRunResponse`: one retention pass over the project now (admin token only) */
  retentionRun: (project: string) => `/v1/projects/${enc(project)}/retention/run`,
  /** GET `?limit` → `deletionAuditResponse`: the project's deletions, newest first (admin token only) */
  deletionAudit: (project: string) => `/v1/projects/${enc(project)}/deletions`,
  /** POST `tableCreate` → `tableCreateResponse` */
  tableCreate: () => '/v1/tables',
  /** POST `tableAppend` → `tableCreateResponse` */
  tableAppend: () => '/v1/tables/append',
  /** POST `tableRowsKnown` → `tableRowsKnownResponse` */
  tableRowsKnown: () => '/v1/tables/rows/known',
  /** POST `tableRowsPut` → `tableRowsPutResponse` */
  tableRowsPut: () => '/v1/tables/rows',
  /** POST `tableByDigests` → `tableCreateResponse` */
  tableByDigests: () => '/v1/tables/by-digests',
  /** GET `?offset&limit` → `tableRowsResponse` */
  tableRows: (project: string, digest: string) => `/v1/tables/${enc(project)}/${enc(digest)}/rows`,
  /** POST raw bytes (`application/octet-stream`) → `fileCreateResponse` */
  fileCreate: (project: string) => `/v1/files/${enc(project)}`,
  /** POST an OTLP/HTTP `ExportTraceServiceRequest` (protobuf or JSON) → `ExportTraceServiceResponse` */
  otlpTraces: () => '/v1/traces',
  /** GET → `traceCallsResponse`: every call of a trace, light (no inputs, output or feedback), in start order */
  traceCalls: (project: string, traceId: string) => `/v1/traces/${enc(project)}/${enc(traceId)}/calls`,
  /** GET → `traceColumnsResponse`: `traceCalls` with `?layout=columns`, the same calls one array per field (what the trace view loads) */
  traceColumns: (project: string, traceId: string) =>
    `/v1/traces/${enc(project)}/${enc(traceId)}/calls?layout=columns`,
  /** POST `traceDiffQuery` → `traceDiffResponse`: two traces aligned step by step */
  traceDiff: () => '/v1/traces/diff',
  /** POST `metricsQuery` → `metricsQueryResponse` */
  metricsQuery: () => '/v1/metrics/query',
  /** GET → `playgroundProvidersResponse`: the providers a playground run may use (no keys) */
  playgroundProviders: (project: string) => `/v1/playground/${enc(project)}/providers`,
  /** POST `playgroundRun` → `application/x-ndjson` lines of `PlaygroundEvent` */
  playgroundRun: () => '/v1/playground/run',
  /** POST `promptSave` → `objectCreateResponse` plus the label set, if any */
  promptSave: () => '/v1/playground/prompts',
  /** POST `alertRule` → `alertStatus` (creates or replaces the rule of that name) */
  alertPut: () => '/v1/alerts',
  /** POST `{ project, name }` → `{ deleted }` */
  alertDelete: () => '/v1/alerts/delete',
  /** POST `alertMute` → `alertStatus` */
  alertMute: () => '/v1/alerts/mute',
  /** GET → `alertListResponse` */
  alertList: (project: string) => `/v1/alerts/${enc(project)}`,
  /** GET `?limit` → `alertHistoryResponse`: state changes and deliveries, newest first */
  alertHistory: (project: string, name: string) => `/v1/alerts/${enc(project)}/${enc(name)}/history`,
  /** POST `evaluatorRule` → `evaluatorStatus` (creates or replaces the rule of that name) */
  evaluatorPut: () => '/v1/evaluators',
  /** POST `{ project, name }` → `{ deleted }` */
  evaluatorDelete: () => '/v1/evaluators/delete',
  /** GET → `evaluatorListResponse` */
  evaluatorList: (project: string) => `/v1/evaluators/${enc(project)}`,
  /** GET `?limit` → `evaluatorActivity`: recent results and errors, newest first */
  evaluatorActivity: (project: string, name: string) =>
    `/v1/evaluators/${enc(project)}/${enc(name)}/activity`,
  /** POST `evaluatorPull` → `evaluatorPullResponse` (code evaluators: the next calls to score) */
  evaluatorPull: () => '/v1/evaluators/pull',
  /** POST `evaluatorResults` → `{ stored }` (stores scores, then moves the rule's cursor) */
  evaluatorResults: () => '/v1/evaluators/results',
  /** POST `evaluatorBackfill` → `evaluatorStatus` (scores the rule's calls of a past range) */
  evaluatorBackfill: () => '/v1/evaluators/backfill',
  /** POST `dashboard` → `savedDashboard` (creates or replaces the dashboard of that name) */
  dashboardPut: () => '/v1/dashboards',
  /** POST `{ project, name }` → `{ deleted }` */
  dashboardDelete: () => '/v1/dashboards/delete',
  /** GET → `dashboardListResponse`: the project's saved dashboards, by name */
  dashboardList: (project: string) => `/v1/dashboards/${enc(project)}`,
  /** GET → the bytes */
  fileRead: (project: string, digest: string) => `/v1/files/${enc(project)}/${enc(digest)}`,
} as const;
