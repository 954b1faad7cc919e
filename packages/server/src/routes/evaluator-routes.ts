import { evaluatorBackfill, evaluatorPull, evaluatorResults, evaluatorRule, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EvaluatorService } from '../evaluators/index.js';
import { projectParams, routePattern, ruleParams, ruleRef } from '../http/index.js';
import { validate } from '../middleware/index.js';

const parseRule = validate(evaluatorRule, 'body');
const parsePull = validate(evaluatorPull, 'body');
const parseResults = validate(evaluatorResults, 'body');
const parseBackfill = validate(evaluatorBackfill, 'body');
const parseName = validate(ruleRef, 'body');
const parseProject = validate(projectParams, 'params');
const parseRuleParams = validate(ruleParams, 'params');
const parseLimit = validate(
  z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
  'query',
);

/** Online evaluators: rules, their status and activity, the walk of code scorers (pull, results), backfills. */
export function registerEvaluatorRoutes(
  app: FastifyInstance,
  { evaluators }: { evaluators: EvaluatorService },
): void {
  app.post(routes.evaluatorPut(), async (request) => evaluators.put(parseRule(request.body)));

  app.post(routes.evaluatorDelete(), async (request) => {
    const { project, name } = parseName(request.body);
    return { deleted: await evaluators.delete(project, name) };
  });

  app.get(routePattern(routes.evaluatorList, 'project'), async (request) => ({
    evaluators: await evaluators.list(parseProject(request.params).project),
  }));

  app.get(routePattern(routes.evaluatorActivity, 'project', 'name'), async (request) => {
    const { project, name } = parseRuleParams(request.params);
    return evaluators.activity(project, name, parseLimit(request.query).limit);
  });

  app.post(routes.evaluatorPull(), async (request) => {
    const { project, name, limit } = parsePull(request.body);
    return evaluators.pull(project, name, limit);
  });

  app.post(routes.evaluatorResults(), async (request) => evaluators.submit(parseResults(request.body)));

  app.post(routes.evaluatorBackfill(), async (request) => {
    const { project, name, from, to } = parseBackfill(request.body);
    return evaluators.backfill(project, name, from, to);
  });
}
