import { z } from 'zod';
import { UsageError } from '../../errors/index.js';
import { readCallRef } from '../call-ref.js';
import { callText } from '../call-text.js';
import { defineTool } from '../define-tool.js';
import { callIdArg, projectArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

export const getCallTool = defineTool({
  name: 'get_call',
  description:
    'Read one call in full: op, status, timing, usage and cost, attributes, feedback, exception with stack, the conversation of an LLM call, and the inputs and output whole. `path` reads one value inside it (inputs, inputs.messages.3, output, attributes, exception); long answers page with `offset`.',
  inputSchema: {
    call_id: z.string().min(1).max(64).describe('A call id, or an outline #id (then trace_id too)'),
    trace_id: callIdArg.optional().describe('The trace of a short #id'),
    project: projectArg,
    path: z.string().max(500).optional().describe('Dot path into the call, e.g. output or inputs.messages.2'),
    offset: z.number().int().min(0).default(0).describe('Character to start at (from a previous cut answer)'),
    max_chars: z.number().int().min(200).max(200_000).default(20_000),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const call = await readCallRef(context.target, project, args.call_id, args.trace_id);
    let text: string;
    if (args.path === undefined) text = callText(call);
    else {
      let value: unknown = call;
      for (const key of args.path.split('.').filter((k) => k !== '')) {
        if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
          throw new UsageError(
            `The call has nothing at \`${args.path}\` (no \`${key}\`); try inputs, output, attributes or exception.`,
          );
        }
        value = (value as Record<string, unknown>)[key];
      }
      text = typeof value === 'string' ? value : (JSON.stringify(value, null, 1) ?? 'undefined');
    }
    const page = text.slice(args.offset, args.offset + args.max_chars);
    const rest = text.length - args.offset - page.length;
    return textResult(
      rest > 0
        ? `${page}\n… [${rest.toLocaleString('en-US')} more chars: pass offset=${args.offset + page.length}]`
        : page,
    );
  },
});
