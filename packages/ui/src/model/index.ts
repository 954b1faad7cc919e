export {
  type AttributeValue,
  type AttributesFromQuery,
  attributesFromQuery,
  attributesToQuery,
  chipText,
  parseAttributeChip,
} from './attribute-filter.js';
export { callLatencyMs, callTokens, costTitle, plainOpName } from './call-metrics.js';
export {
  compareRows,
  expectedOf,
  flattenScores,
  type RowComparison,
  rowDirection,
  rowResult,
  type SummaryDelta,
  summaryDeltas,
} from './eval-compare.js';
export { type RunInfo, runInfo, runSummary, scoresLine } from './eval-summary.js';
export { findRefs } from './find-refs.js';
export {
  formatCount,
  formatDelta,
  formatDuration,
  formatRelativeTime,
  formatTime,
  shortId,
} from './format.js';
export { type ScoreComparison, scoreIntervals, verdict } from './score-intervals.js';
export {
  ancestorIds,
  barPlacement,
  buildTraceTree,
  isModelCall,
  type TraceNode,
  type TraceTree,
  traceTotals,
  visibleNodes,
} from './trace-tree.js';
export { scrollToReveal, type VirtualWindow, virtualWindow } from './virtual-window.js';
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
} from '../api/index.js';
export { type LlmFacts, llmFacts, type TokenCounts } from './llm-facts.js';
export {
  type PlaygroundSource,
  promptValue,
  type Variant,
  variantFromConversation,
  variantFromPrompt,
} from './playground/index.js';
export { callPreview } from './call-preview.js';
export {
  DASHBOARD_RANGES,
  type DashboardPanel,
  DEFAULT_DASHBOARD_RANGE,
  defaultPanels,
  formatPanelValue,
  panelsOf,
  pointLink,
  savedPanels,
  seriesLabel,
} from './dashboard.js';
