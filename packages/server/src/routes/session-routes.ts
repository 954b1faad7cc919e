import { isTimestampMs, routes, sessionQuery } from '@weft/protocol';
import type { FastifyInstance } from 'fastify';
import { validate } from '../middleware/index.js';
import type { Storage } from '../storage/index.js';

const parseQuery = validate(sessionQuery, 'body');

/** Sessions of a project with their totals, and the list of projects (for pickers). */
export function registerSessionRoutes(app: FastifyInstance, { storage }: { storage: Storage }): void {
  app.post(routes.sessionQuery(), async (request) => {
    return storage.querySessions(parseQuery(request.body));
  });

  app.get(routes.projectList(), async () => {
    // Ingest refuses times past the year 9999; a time stored before it did
    // is reported as unknown rather than break every reader that formats it.
    const projects = await storage.listProjects();
    return {
      projects: projects.map((project) =>
        project.lastCallAt === null || isTimestampMs(project.lastCallAt)
          ? project
          : { ...project, lastCallAt: null },
      ),
    };
  });
}
