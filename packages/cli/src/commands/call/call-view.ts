import { type Call, formatUsd } from '@weft/protocol';
import {
  formatCount,
  formatMs,
  formatTime,
  formatValue,
  latencyOf,
  llmConversation,
  opNameOf,
  totalTokensOf,
} from '../../render/index.js';

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');

/**
 * A call as people read it: a headline, where it sits and what it cost,
 * attributes, feedback and the error, then an LLM call's messages as a
 * conversation, then inputs and output as indented `key: value` text.
 */
export function formatCallView(call: Call): string {
  const latency = latencyOf(call);
  const tokens = totalTokensOf(call);
  const head = [
    opNameOf(call.opName) + (call.displayName ? ` "${call.displayName}"` : ''),
    call.status,
    latency === undefined ? undefined : formatMs(latency),
    tokens === undefined ? undefined : `${formatCount(tokens)} tokens`,
    formatUsd(call.summary?.costUsd) || undefined,
  ].filter((p) => p !== undefined);
  const out = [
    head.join('  '),
    `call     ${call.id}`,
    `trace    ${call.traceId}  ${call.parentId === null ? '(root)' : `parent ${call.parentId}`}`,
    `project  ${call.project}${call.sessionId ? `  session ${call.sessionId}` : ''}`,
    `started  ${formatTime(call.startedAt)} UTC`,
  ];
  for (const [model, u] of Object.entries(call.summary?.usage ?? {})) {
    out.push(
      `usage    ${model}: ${formatCount(u.inputTokens)} in, ${formatCount(u.outputTokens)} out, ${u.requests} request(s)${u.costUsd === undefined ? '' : `, ${formatUsd(u.costUsd)}`}`,
    );
  }
  if (Object.keys(call.attributes).length > 0)
    out.push('', 'attributes', indent(formatValue(call.attributes)));
  if ((call.feedback ?? []).length > 0) {
    out.push('', 'feedback');
    for (const f of call.feedback ?? []) {
      out.push(
        `  ${f.name} = ${JSON.stringify(f.value)}${f.source ? `  (${f.source})` : ''}${f.comment ? `  ${f.comment}` : ''}`,
      );
    }
  }
  if (call.exception) {
    out.push('', `error    ${call.exception.name}: ${call.exception.message}`);
    if (call.exception.stack)
      out.push(
        indent(
          call.exception.stack
            .split('\n')
            .slice(1, 13)
            .map((l) => l.trim())
            .join('\n'),
        ),
      );
  }
  const conversation = llmConversation(call);
  if (conversation) {
    out.push('', 'conversation');
    for (const m of conversation)
      out.push(indent(`${m.role}: ${m.text.includes('\n') ? `\n${indent(m.text)}` : m.text}`));
  }
  out.push('', 'inputs', indent(formatValue(call.inputs)));
  if (call.endedAt !== null && !call.exception) out.push('', 'output', indent(formatValue(call.output)));
  return out.join('\n');
}
