/**
 * The one place the UI reaches into @weft/protocol. Only the route builders
 * are imported (by source path; they depend on nothing): the package index
 * also pulls in node:crypto (digests) and zod, which the UI does not need.
 * Types are erased at build.
 */
export { isRefUri, parseRef, type Ref } from './ref.js';
export { routes } from '../../../protocol/src/wire/routes.js';
// The same cost text as `weft calls` prints; the file depends on nothing.
export { formatUsd } from '../../../protocol/src/pricing/format-usd.js';
// The calls view's address for a set of filters, as alert messages write it; the file depends on nothing.
export { type CallsViewLink, callsViewHash } from '../../../protocol/src/wire/ui-links.js';

export type {
  AlertEvent,
  AlertHistoryResponse,
  AlertState,
  AlertStatus,
  Call,
  EvaluatorActivity,
  EvaluatorStatus,
  MetricGroupBy,
  MetricMeasure,
  MetricSeries,
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
  PromptSave,
  ScorerSummary,
  ScoreStats,
  ScoreValue,
  TableRowsResponse,
} from '@weft/protocol';

// Re-declared rather than imported: protocol's evaluation module builds zod
// schemas at load time. The `satisfies` checks keep the spelling in step.
import type { EVALUATE_OP as EvaluateOp, PREDICT_AND_SCORE_OP as PredictOp } from '@weft/protocol';
export const EVALUATE_OP = 'Evaluation.evaluate' satisfies typeof EvaluateOp;
export const PREDICT_AND_SCORE_OP = 'Evaluation.predict_and_score' satisfies typeof PredictOp;
