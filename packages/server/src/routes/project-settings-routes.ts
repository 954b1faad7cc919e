import { type DeletionAuditResponse, projectSettings, routes } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { projectParams, routePattern } from '../http/index.js';
import type { DeletionAudit, ProjectSettingsStore, RetentionSweeper } from '../lifecycle/index.js';
import { requireAdmin, validate } from '../middleware/index.js';

const parseProject = validate(projectParams, 'params');
const parseSettings = validate(projectSettings, 'body');
const parseAuditQuery = validate(
  z.object({ limit: z.coerce.number().int().min(1).max(1_000).default(100) }),
  'query',
);

/** What the lifecycle routes use. */
export interface LifecycleRouteContext {
  settings: ProjectSettingsStore;
  sweeper: RetentionSweeper;
  audit: DeletionAudit;
}

/**
 * A project's lifecycle settings (retention, keep rules: read by any token
 * of the project, changed by the admin token), a retention pass on demand,
 * and the deletion log.
 */
export function registerProjectSettingsRoutes(
  app: FastifyInstance,
  { settings, sweeper, audit }: LifecycleRouteContext,
): void {
  const settingsPattern = routePattern(routes.projectSettings, 'project');
  app.get(settingsPattern, async (request) => settings.read(parseProject(request.params).project));
  app.put(settingsPattern, { preHandler: requireAdmin('Changing retention') }, async (request) => {
    const { project } = parseProject(request.params);
    return settings.write(project, parseSettings(request.body));
  });
  app.post(
    routePattern(routes.retentionRun, 'project'),
    { preHandler: requireAdmin('Running retention') },
    async (request) => sweeper.sweepProject(parseProject(request.params).project),
  );
  app.get(
    routePattern(routes.deletionAudit, 'project'),
    { preHandler: requireAdmin('Reading the deletion log') },
    async (request): Promise<DeletionAuditResponse> => {
      const { project } = parseProject(request.params);
      return { entries: await audit.read(project, parseAuditQuery(request.query).limit) };
    },
  );
}
