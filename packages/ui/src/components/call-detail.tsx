import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type Call, formatUsd } from '../api/index.js';
import {
  callLatencyMs,
  callTokens,
  costTitle,
  plainOpName,
  formatCount,
  formatDuration,
  formatTime,
} from '../model/index.js';
import { href } from '../router/index.js';
import { CopyButton } from './copy-button.js';
import { ExceptionView } from './exception-view.js';
import { FeedbackPanel } from './feedback-panel.js';
import { JsonViewer } from './json-viewer.js';
import { StatusBadge } from './status-badge.js';

function Section({
  title,
  children,
  open = true,
}: {
  title: string;
  children: ComponentChildren;
  open?: boolean;
}) {
  const [isOpen, setOpen] = useState(open);
  return (
    <section class="detail-section" data-section={title.toLowerCase()}>
      <h3>
        <button type="button" class="section-toggle" aria-expanded={isOpen} onClick={() => setOpen(!isOpen)}>
          <span class="caret" aria-hidden="true">
            {isOpen ? '▾' : '▸'}
          </span>
          {title}
        </button>
      </h3>
      {isOpen && children}
    </section>
  );
}

/** Everything recorded about one call: inputs, output, exception, summary, attributes. */
export function CallDetail({ call, showTraceLink = true }: { call: Call; showTraceLink?: boolean }) {
  const opName = plainOpName(call.opName);
  return (
    <article class="call-detail" data-call-id={call.id} aria-label={`Call ${opName}`}>
      <header class="call-detail-head">
        <div class="call-title">
          <h2>{call.displayName ?? opName}</h2>
          <CopyButton text={() => JSON.stringify(call, null, 2)} />
        </div>
        <dl class="facts">
          <dt>Op</dt>
          <dd title={call.opName}>{opName}</dd>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={call.status} />
          </dd>
          <dt>Latency</dt>
          <dd>{formatDuration(callLatencyMs(call))}</dd>
          <dt>Tokens</dt>
          <dd>{formatCount(callTokens(call))}</dd>
          {call.summary?.costUsd !== undefined && (
            <>
              <dt>Cost</dt>
              <dd class="call-cost" title={costTitle(call.summary.costUsd)}>
                {formatUsd(call.summary.costUsd)}
              </dd>
            </>
          )}
          <dt>Started</dt>
          <dd>{formatTime(call.startedAt)}</dd>
          {call.sessionId && (
            <>
              <dt>Session</dt>
              <dd>
                <a href={href(call.project, ['sessions', call.sessionId])}>{call.sessionId}</a>
              </dd>
            </>
          )}
          <dt>Call</dt>
          <dd>
            <a href={href(call.project, ['calls', call.id])}>
              <code>{call.id}</code>
            </a>
          </dd>
          {showTraceLink && (
            <>
              <dt>Trace</dt>
              <dd>
                <a href={href(call.project, ['trace', call.traceId], { call: call.id })}>
                  <code>{call.traceId}</code>
                </a>
              </dd>
            </>
          )}
        </dl>
      </header>
      {call.exception && (
        <Section title="Exception">
          <ExceptionView exception={call.exception} />
        </Section>
      )}
      <Section title="Inputs">
        <JsonViewer value={call.inputs} openDepth={4} label="Inputs" />
      </Section>
      <Section title="Output">
        {call.endedAt === null ? (
          <p class="muted">Still running.</p>
        ) : (
          <JsonViewer value={call.output} openDepth={4} label="Output" />
        )}
      </Section>
      <Section title="Feedback">
        <FeedbackPanel key={call.id} call={call} />
      </Section>
      <Section title="Summary" open={false}>
        <JsonViewer value={call.summary ?? {}} label="Summary" />
      </Section>
      <Section title="Attributes" open={false}>
        <JsonViewer value={call.attributes} label="Attributes" />
      </Section>
    </article>
  );
}
