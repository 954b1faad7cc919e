import { defineCommand } from '../define-command.js';
import { parseCallId } from '../flag-values.js';
import { addOutputFlags, type OutputFlags, resolveOutput } from '../output-format.js';
import { addServerFlags, type ServerFlags, resolveServerFlags } from '../server-flags.js';
import type { CallOptions } from './call-options.js';

export const callCommand = defineCommand<CallOptions, ServerFlags & OutputFlags>({
  path: ['call'],
  summary: 'Show one call: its values readably, an LLM call as a conversation',
  configure(command) {
    command.argument('<id>', 'the call id (found in any project unless --project is given)', parseCallId);
    addOutputFlags(addServerFlags(command), { tabular: false });
  },
  resolve([id], flags, env) {
    return { ...resolveServerFlags(flags, env), id: id!, json: resolveOutput(flags) === 'json' };
  },
  load: async () => (await import('./call.js')).call,
});

export type { CallOptions } from './call-options.js';
