import {
  callMeasure,
  type MetricMeasure,
  metricBucket,
  metricGroupBy,
  type MetricSeries,
} from '@weft/protocol';
import { z } from 'zod';
import { UsageError } from '../../errors/index.js';
import { TIME_POINT_FORMS, timePointOf } from '../../query/index.js';
import { formatTime } from '../../render/index.js';
import { queryMetrics } from '../../server-api/index.js';
import { defineTool } from '../define-tool.js';
import { projectArg, timeArg } from '../tool-arguments.js';
import { textResult } from '../tool-text.js';

const FEEDBACK_MEASURE = /^feedback:(.+?)(?::(mean|distribution))?$/;

export const queryMetricsTool = defineTool({
  name: 'query_metrics',
  description: `Measures of a project's calls per time bucket, from the server's rollups: ${callMeasure.options.join(', ')}, or feedback:<name> (mean with its 95% interval) and feedback:<name>:distribution; optionally split by ${metricGroupBy.options.join(', ')}, and filtered like search_calls. Sum tokens and cost over root calls (filter {"parentId": null}) to count each once.`,
  inputSchema: {
    measures: z
      .array(z.string().min(1))
      .min(1)
      .max(20)
      .describe('e.g. ["count", "errorRate", "latency.p95", "feedback:thumbs"]'),
    project: projectArg,
    since: timeArg.describe(`Start of the range: ${TIME_POINT_FORMS}; default 7d`),
    until: timeArg.describe('End of the range (same forms); default now'),
    bucket: metricBucket.default('auto').describe('minute … month, total (one bucket), or auto'),
    group_by: metricGroupBy.optional(),
    time_zone: z.string().min(1).max(64).default('UTC').describe('IANA time zone buckets are cut in'),
    filter: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Call-query filters in the API\'s own names, e.g. {"opName": "llm.chat", "parentId": null, "status": "error"}',
      ),
  },
  async run(args, context) {
    const project = await context.project(args.project);
    const point = (name: string, value: string | number | undefined, fallback: number) => {
      if (value === undefined) return fallback;
      const ms = timePointOf(value);
      if (ms === undefined)
        throw new UsageError(`\`${name}\` must be ${TIME_POINT_FORMS}; got ${JSON.stringify(value)}.`);
      return ms;
    };
    const now = Date.now();
    const measures = args.measures.map((m): MetricMeasure => {
      const feedback = FEEDBACK_MEASURE.exec(m);
      if (feedback)
        return { feedback: feedback[1]!, stat: (feedback[2] ?? 'mean') as 'mean' | 'distribution' };
      const parsed = callMeasure.safeParse(m);
      if (!parsed.success) {
        throw new UsageError(
          `Unknown measure ${JSON.stringify(m)}: use one of ${callMeasure.options.join(', ')}, or feedback:<name>[:distribution].`,
        );
      }
      return parsed.data;
    });
    const answer = await queryMetrics(context.target, {
      project,
      from: point('since', args.since, now - 7 * 86_400_000),
      to: point('until', args.until, now),
      bucket: args.bucket,
      timeZone: args.time_zone,
      measures,
      ...(args.group_by ? { groupBy: args.group_by } : {}),
      ...(args.filter ? { filter: args.filter } : {}),
    });
    const columns = answer.series.map(seriesTitle);
    const lines = [
      `project ${project}, ${answer.bucket} buckets (${answer.timeZone}), from ${answer.source}; percentiles within ±${(answer.quantileRelativeError * 100).toFixed(1)}%`,
      ['bucket start', ...columns].join(' | '),
      ...answer.buckets.map((start, i) =>
        [formatTime(start), ...answer.series.map((s) => cell(s, i))].join(' | '),
      ),
    ];
    if (answer.groupsOmitted > 0) lines.push(`${answer.groupsOmitted} smaller group(s) left out.`);
    return textResult(lines.join('\n'));
  },
});

function seriesTitle(series: MetricSeries): string {
  return series.group === null ? series.measure : `${series.measure} [${series.group}]`;
}

function cell(series: MetricSeries, i: number): string {
  const distribution = series.distribution?.[i];
  if (distribution)
    return (
      Object.entries(distribution)
        .map(([value, count]) => `${value}:${count}`)
        .join(' ') || '-'
    );
  const value = series.values[i];
  if (value === null || value === undefined) return '-';
  const shown = Number.isInteger(value) ? String(value) : value.toPrecision(4);
  const low = series.low?.[i];
  const high = series.high?.[i];
  return low != null && high != null
    ? `${shown} [${low.toPrecision(3)}, ${high.toPrecision(3)}] n=${series.n?.[i] ?? '?'}`
    : shown;
}
