import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { Call } from '../../api/index.js';
import { conversationOf, plainOpName } from '../../model/index.js';
import { href } from '../../router/index.js';
import { CopyButton } from '../copy-button.js';
import { ExceptionView } from '../exception-view.js';
import { FeedbackPanel } from '../feedback-panel.js';
import { JsonViewer } from '../json-viewer.js';
import { ConversationView } from '../messages/index.js';
import { CallFacts } from './call-facts.js';
import { DetailSection } from './detail-section.js';
import { SummaryFacts } from './summary-facts.js';

/**
 * Everything recorded about one call. A model call (its inputs hold
 * messages, in any provider's shape) reads as its conversation, with the
 * raw inputs and output one click away; any other call shows its inputs and
 * output as JSON. Then feedback, the summary as facts, and attributes.
 * `actions` (e.g. "Open in playground") go in the title row.
 */
export function CallDetail({
  call,
  showTraceLink = true,
  actions,
}: {
  call: Call;
  showTraceLink?: boolean;
  actions?: ComponentChildren;
}) {
  const opName = plainOpName(call.opName);
  const conversation = useMemo(() => conversationOf(call), [call]);
  const [raw, setRaw] = useState(false);
  const rawToggle = conversation && (
    <button type="button" class="button small raw-toggle" aria-pressed={raw} onClick={() => setRaw(!raw)}>
      {raw ? 'Show as conversation' : 'Raw JSON'}
    </button>
  );
  return (
    <article class="call-detail" data-call-id={call.id} aria-label={`Call ${opName}`}>
      <header class="call-detail-head">
        <div class="call-title">
          <h2>{call.displayName ?? opName}</h2>
          {actions}
          {conversation && (
            <a
              class="button small open-playground"
              href={href(call.project, ['playground'], { call: call.id })}
            >
              Open in playground
            </a>
          )}
          <CopyButton text={() => JSON.stringify(call, null, 2)} />
        </div>
        <CallFacts call={call} showTraceLink={showTraceLink} />
      </header>
      {call.exception && (
        <DetailSection title="Exception">
          <ExceptionView exception={call.exception} />
        </DetailSection>
      )}
      {conversation && !raw ? (
        <DetailSection title="Conversation" actions={rawToggle}>
          <ConversationView conversation={conversation} running={call.endedAt === null} />
        </DetailSection>
      ) : (
        <>
          <DetailSection title="Inputs" actions={rawToggle}>
            <JsonViewer value={call.inputs} openDepth={4} label="Inputs" />
          </DetailSection>
          <DetailSection title="Output">
            {call.endedAt === null ? (
              <p class="muted">Still running.</p>
            ) : (
              <JsonViewer value={call.output} openDepth={4} label="Output" />
            )}
          </DetailSection>
        </>
      )}
      <DetailSection title="Feedback">
        <FeedbackPanel key={call.id} call={call} />
      </DetailSection>
      <DetailSection title="Summary" open={false}>
        <SummaryFacts call={call} />
      </DetailSection>
      <DetailSection title="Attributes" open={false}>
        <JsonViewer value={call.attributes} label="Attributes" />
      </DetailSection>
    </article>
  );
}
