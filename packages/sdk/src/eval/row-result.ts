import type { EvaluationRowResult, ModelUsage } from '@weft/protocol';

/**
 * A row result as the runner keeps it and writes it to the checkpoint: the
 * recorded {@link EvaluationRowResult} plus the row's token usage per model
 * (rolled up from its calls), so a resumed run's summary still counts the
 * tokens of rows finished before the crash.
 */
export type RowResult = EvaluationRowResult & { usage?: Record<string, ModelUsage> | undefined };
