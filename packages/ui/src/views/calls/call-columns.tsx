import type { VNode } from 'preact';
import { type Call, type CallSortField, formatUsd } from '../../api/index.js';
import { Snippet, StatusBadge, ThumbsDownIcon, ThumbsUpIcon, TimeAgo } from '../../components/index.js';
import type { ChoosableColumn } from '../../hooks/index.js';
import {
  callLatencyMs,
  callTokens,
  costTitle,
  formatCount,
  formatDuration,
  llmFacts,
  plainOpName,
} from '../../model/index.js';

/** A column of the calls table: how its header sorts and how a call fills its cell. */
export interface CallColumn extends ChoosableColumn {
  class: string;
  sort?: CallSortField;
  /** The cell's hover text (the exact value behind a rounded one). */
  title?: (call: Call) => string | undefined;
  cell: (call: Call, preview: { input: string; output: string }) => VNode | string;
}

function FeedbackCell({ call }: { call: Call }) {
  const feedback = call.feedback ?? [];
  const up = feedback.filter((f) => f.value === true).length;
  const down = feedback.filter((f) => f.value === false).length;
  const other = feedback.length - up - down;
  return (
    <span
      class="feedback-cell"
      title={feedback.map((f) => `${f.name}: ${String(f.value)}`).join('\n') || undefined}
    >
      {up > 0 && (
        <span class="thumb thumb-up">
          <ThumbsUpIcon size={14} />
          <span class="visually-hidden">thumbs up</span> {up}
        </span>
      )}
      {down > 0 && (
        <span class="thumb thumb-down">
          <ThumbsDownIcon size={14} />
          <span class="visually-hidden">thumbs down</span> {down}
        </span>
      )}
      {other > 0 && <span class="muted"> +{other}</span>}
    </span>
  );
}

/** Every column of the calls table, in order; the chooser hides or shows those marked optional. */
export const CALL_COLUMNS: readonly CallColumn[] = [
  {
    id: 'op',
    label: 'Op',
    class: 'col-op',
    sort: 'opName',
    defaultOn: true,
    title: (c) => c.opName,
    cell: (c) => plainOpName(c.opName),
  },
  {
    id: 'name',
    label: 'Name',
    class: 'col-name',
    defaultOn: true,
    cell: (c) => (
      <>
        <span class="call-name">{c.displayName ?? ''}</span>
        {c.snippet && <Snippet parts={c.snippet} />}
      </>
    ),
  },
  {
    id: 'input',
    label: 'Input',
    class: 'col-preview',
    defaultOn: true,
    cell: (_c, p) => <span title={p.input}>{p.input}</span>,
  },
  {
    id: 'output',
    label: 'Output',
    class: 'col-preview',
    defaultOn: true,
    cell: (_c, p) => <span title={p.output}>{p.output}</span>,
  },
  {
    id: 'model',
    label: 'Model',
    class: 'col-model',
    defaultOn: true,
    cell: (c) => llmFacts(c).models.join(', '),
  },
  {
    id: 'status',
    label: 'Status',
    class: 'col-status',
    defaultOn: true,
    cell: (c) => <StatusBadge status={c.status} />,
  },
  {
    id: 'feedback',
    label: 'Feedback',
    class: 'col-feedback',
    defaultOn: true,
    cell: (c) => <FeedbackCell call={c} />,
  },
  {
    id: 'latency',
    label: 'Latency',
    class: 'col-num',
    sort: 'latencyMs',
    defaultOn: true,
    cell: (c) => formatDuration(callLatencyMs(c)),
  },
  {
    id: 'tokens',
    label: 'Tokens',
    class: 'col-num',
    defaultOn: true,
    cell: (c) => formatCount(callTokens(c)),
  },
  {
    id: 'cost',
    label: 'Cost',
    class: 'col-num col-cost',
    defaultOn: true,
    title: (c) => costTitle(c.summary?.costUsd),
    // Blank without a cost (unpriced or no usage): absent, never $0.
    cell: (c) => formatUsd(c.summary?.costUsd),
  },
  {
    id: 'started',
    label: 'Started',
    class: 'col-time',
    sort: 'startedAt',
    defaultOn: true,
    cell: (c) => <TimeAgo ms={c.startedAt} />,
  },
];
