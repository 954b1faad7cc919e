import { dashboard, type DashboardParsed, routes, type SavedDashboard } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { projectParams, routePattern, ruleRef } from '../http/index.js';
import { validate } from '../middleware/index.js';
import type { MonitorStorage } from '../storage/index.js';

const parseDashboard = validate(dashboard, 'body');
const parseName = validate(ruleRef, 'body');
const parseProject = validate(projectParams, 'params');

/** Monitoring documents of this kind hold saved dashboards, keyed by name. */
const DASHBOARD = 'dashboard';

/** Custom dashboards: saved per project by name (panels as JSON), listed, deleted. */
export function registerDashboardRoutes(
  app: FastifyInstance,
  { monitoring }: { monitoring: MonitorStorage },
): void {
  app.post(routes.dashboardPut(), async (request): Promise<SavedDashboard> => {
    const saved = parseDashboard(request.body);
    const stored = await monitoring.writeDocument<DashboardParsed>(
      saved.project,
      DASHBOARD,
      saved.name,
      saved,
    );
    return { ...saved, updatedAt: stored?.updatedAt ?? Date.now() };
  });

  app.post(routes.dashboardDelete(), async (request) => {
    const { project, name } = parseName(request.body);
    return { deleted: await monitoring.deleteDocument(project, DASHBOARD, name) };
  });

  app.get(routePattern(routes.dashboardList, 'project'), async (request) => {
    const { project } = parseProject(request.params);
    const documents = await monitoring.listDocuments<DashboardParsed>(DASHBOARD, project);
    return { dashboards: documents.map((doc) => ({ ...doc.value, updatedAt: doc.updatedAt })) };
  });
}
