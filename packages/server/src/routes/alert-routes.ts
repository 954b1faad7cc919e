import { alertMute, alertRule, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AlertService } from '../alerts/index.js';
import { NotFoundError } from '../errors/index.js';
import { projectParams, routePattern, ruleParams, ruleRef } from '../http/index.js';
import { validate } from '../middleware/index.js';

const parseRule = validate(alertRule, 'body');
const parseMute = validate(alertMute, 'body');
const parseName = validate(ruleRef, 'body');
const parseProject = validate(projectParams, 'params');
const parseRuleParams = validate(ruleParams, 'params');
const parseLimit = validate(
  z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
  'query',
);

/** Alert rules: create or replace, mute, delete, list with their states, and each one's history. */
export function registerAlertRoutes(app: FastifyInstance, { alerts }: { alerts: AlertService }): void {
  app.post(routes.alertPut(), async (request) => alerts.put(parseRule(request.body)));

  app.post(routes.alertMute(), async (request) => {
    const { project, name, until } = parseMute(request.body);
    const rule = await alerts.get(project, name);
    if (rule === undefined) throw new NotFoundError(`No alert ${name} in project ${project}.`);
    return alerts.put({ ...rule, mutedUntil: until });
  });

  app.post(routes.alertDelete(), async (request) => {
    const { project, name } = parseName(request.body);
    return { deleted: await alerts.delete(project, name) };
  });

  app.get(routePattern(routes.alertList, 'project'), async (request) => ({
    alerts: await alerts.list(parseProject(request.params).project),
  }));

  app.get(routePattern(routes.alertHistory, 'project', 'name'), async (request) => {
    const { project, name } = parseRuleParams(request.params);
    if ((await alerts.get(project, name)) === undefined) {
      throw new NotFoundError(`No alert ${name} in project ${project}.`);
    }
    return alerts.history(project, name, parseLimit(request.query).limit);
  });
}
