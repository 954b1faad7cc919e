import { type MetricsQuery, type MetricsQueryResponse, metricsQueryResponse, routes } from '@weft/protocol';
import { postJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** Measures of a project's calls per time bucket (the server's rollups). */
export async function queryMetrics(target: ServerTarget, query: MetricsQuery): Promise<MetricsQueryResponse> {
  const answer = await postJson(target, routes.metricsQuery(), query);
  return parseAnswer(metricsQueryResponse, answer, target, 'a metrics query');
}
