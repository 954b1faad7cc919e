import { z } from 'zod';
import { datasetFromCalls, giveFeedback, setObjectLabel } from '../../server-api/index.js';
import { defineTool } from '../define-tool.js';
import { callIdArg, filterValue, projectArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

// Tools that change what the server stores: offered only when `weft mcp` runs with --allow-writes.

export const addToDatasetTool = defineTool({
  name: 'add_to_dataset',
  description:
    "Add calls to a dataset as rows ({...inputs, expected: output, sourceCall}), publishing a new version; by default after the latest version's rows.",
  writes: true,
  inputSchema: {
    dataset: z.string().min(1).max(128).describe('Dataset name'),
    call_ids: z.array(callIdArg).min(1).max(1_000),
    append: z
      .boolean()
      .default(true)
      .describe('Keep the rows of the latest version (false: the calls alone)'),
    project: projectArg,
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const made = await datasetFromCalls(context.target, {
      project,
      name: args.dataset,
      callIds: args.call_ids.map((id) => id.toLowerCase()),
      append: args.append,
    });
    return textResult(
      `Dataset ${made.name} v${made.version} (${made.rowCount} rows) in project ${project}: ${made.ref}`,
    );
  },
});

export const giveFeedbackTool = defineTool({
  name: 'give_feedback',
  description:
    'Record feedback on a call: a name (thumbs, correctness) and a value (true/false, a score, a short label).',
  writes: true,
  inputSchema: {
    call_id: callIdArg,
    name: z.string().min(1).max(256),
    value: filterValue,
    comment: z.string().max(10_000).optional(),
    project: projectArg,
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const feedback = await giveFeedback(context.target, {
      project,
      callId: args.call_id.toLowerCase(),
      name: args.name,
      value: args.value,
      source: 'weft-mcp',
      ...(args.comment === undefined ? {} : { comment: args.comment }),
    });
    return textResult(
      `Feedback ${feedback.name}=${JSON.stringify(feedback.value)} recorded on call ${args.call_id} (id ${feedback.id}).`,
    );
  },
});

export const setLabelTool = defineTool({
  name: 'set_label',
  description:
    'Point a label (production, staging) of an object or dataset at one of its versions, moving it if set.',
  writes: true,
  inputSchema: {
    object: z.string().min(1).max(128).describe('Object or dataset name'),
    label: z.string().min(1).max(40),
    version: z.number().int().positive(),
    project: projectArg,
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const label = await setObjectLabel(context.target, {
      project,
      name: args.object,
      label: args.label,
      version: args.version,
    });
    return textResult(
      `${args.object}:${label.label} now points at v${label.version} (${label.digest}) in project ${project}.`,
    );
  },
});
