/**
 * The one place the UI reaches into @weft/protocol: its zod-free subpaths
 * (the root builds zod schemas at load time; .dependency-cruiser.cjs keeps
 * the subpaths free of zod). Types come from the root and are erased at build.
 */
export { isWeftErrorCode, WeftError } from '@weft/protocol/errors';
// The same cost text as `weft calls` prints.
export { formatUsd } from '@weft/protocol/pricing';
export { isRefUri, type Ref, tryParseRef } from '@weft/protocol/refs';
// The same value differences as the replay's divergence and the trace diff API report.
export { callsOfTraceColumns, type ValueDifference, valueDifferences } from '@weft/protocol/trace';
// Model calls and session turns read as messages, as `weft mcp` reads them too.
export {
  type Conversation,
  type ConversationFormat,
  conversationOf,
  type Message,
  type Part,
  partsOf,
  readMessage,
  readMessages,
  type ToolDefinition,
  turnMessages,
} from '@weft/protocol/messages';
// The calls view's address for a set of filters, as alert messages write it.
export {
  type CallsViewLink,
  callsViewHash,
  EVALUATE_OP,
  PREDICT_AND_SCORE_OP,
  routes,
} from '@weft/protocol/wire';

export type {
  AlertEvent,
  AlertHistoryResponse,
  AlertState,
  AlertStatus,
  Call,
  Dashboard,
  DashboardPanel as SavedPanel,
  EvaluatorActivity,
  EvaluatorStatus,
  MetricGroupBy,
  MetricMeasure,
  MetricSeries,
  PanelUnit,
  SavedDashboard,
  CallQuery,
  CallQueryResponse,
  CallFilter,
  MetricsQuery,
  MetricsQueryResponse,
  CallSortField,
  CallStatus,
  CallSummary,
  DatasetFromCalls,
  DatasetFromCallsResponse,
  EvaluationRowResult,
  Feedback,
  FeedbackCreate,
  FeedbackValue,
  ObjectLabel,
  ObjectCreateResponse,
  ObjectLabelsResponse,
  ProjectListResponse,
  SessionQuery,
  SessionQueryResponse,
  SessionSummary,
  EvaluationSummary,
  ExceptionInfo,
  ModelUsage,
  ObjectListResponse,
  ObjectRead,
  ObjectVersion,
  ObjectVersionsResponse,
  PlaygroundEvent,
  PlaygroundMessage,
  PlaygroundParameters,
  PlaygroundProvider,
  PlaygroundProvidersResponse,
  PlaygroundRun,
  PlaygroundTool,
  ProjectSettings,
  ProjectSettingsResponse,
  PromptSave,
  ScorerSummary,
  ScoreStats,
  ScoreValue,
  TableRowsResponse,
  TraceDiffQuery,
  TraceCallsResponse,
  TraceColumnsResponse,
  TraceDiffResponse,
} from '@weft/protocol';
