import { type Call, formatUsd } from '@weft/protocol';
import { formatCount, formatMs, formatTime, latencyOf, llmConversation, opNameOf } from '../render/index.js';

/** Lines of a stack kept in a call's description. */
const STACK_LINES = 12;

/**
 * A call in full, for an agent: what it was, where it sits, what it cost,
 * its feedback and error, its conversation (for an LLM call), then inputs
 * and output as JSON.
 */
export function callText(call: Call): string {
  const latency = latencyOf(call);
  const lines = [
    `call ${call.id}: ${opNameOf(call.opName)}${call.displayName ? ` "${call.displayName}"` : ''}, ${call.status}`,
    `trace ${call.traceId}, ${call.parentId === null ? 'root' : `parent ${call.parentId}`}${call.sessionId ? `, session ${call.sessionId}` : ''}, project ${call.project}`,
    `started ${formatTime(call.startedAt)} UTC${latency === undefined ? '' : `, latency ${formatMs(latency)}`}${call.summary?.costUsd === undefined ? '' : `, cost ${formatUsd(call.summary.costUsd)}`}`,
  ];
  for (const [model, u] of Object.entries(call.summary?.usage ?? {})) {
    lines.push(
      `usage ${model}: ${formatCount(u.inputTokens)} in, ${formatCount(u.outputTokens)} out, ${u.requests} request(s)${u.costUsd === undefined ? '' : `, ${formatUsd(u.costUsd)}`}`,
    );
  }
  if (Object.keys(call.attributes).length > 0) lines.push(`attributes: ${JSON.stringify(call.attributes)}`);
  for (const f of call.feedback ?? []) {
    lines.push(
      `feedback ${f.name}=${JSON.stringify(f.value)}${f.source ? ` by ${f.source}` : ''}${f.comment ? `: ${f.comment}` : ''}`,
    );
  }
  if (call.exception) {
    lines.push(`exception ${call.exception.name}: ${call.exception.message}`);
    if (call.exception.stack) lines.push(...call.exception.stack.split('\n').slice(1, STACK_LINES + 1));
  }
  const conversation = llmConversation(call);
  if (conversation) {
    lines.push('', 'conversation:');
    for (const m of conversation) lines.push(`[${m.role}] ${m.text}`);
  }
  lines.push('', `inputs: ${JSON.stringify(call.inputs, null, 1)}`);
  if (call.endedAt !== null && !call.exception) lines.push(`output: ${JSON.stringify(call.output, null, 1)}`);
  return lines.join('\n');
}
