import { formatCount, formatTime } from '../../render/index.js';
import { listProjects } from '../../server-api/index.js';
import { textResult } from '../tool-text.js';
import { defineTool } from '../define-tool.js';

export const listProjectsTool = defineTool({
  name: 'list_projects',
  description:
    'List the projects on the Weft server, with how many calls each holds and when the last one started.',
  inputSchema: {},
  async run(_args, context) {
    const projects = await listProjects(context.target);
    if (projects.length === 0) return textResult('The server has no project yet.');
    return textResult(
      projects
        .map(
          (p) =>
            `${p.name}  ${formatCount(p.callCount)} calls  last ${p.lastCallAt === null ? '-' : formatTime(p.lastCallAt)}`,
        )
        .join('\n'),
    );
  },
});
