import { type ProjectListResponse, projectListResponse, routes } from '@weft/protocol';
import { getJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** A project as the server lists it. */
export type ProjectSummary = ProjectListResponse['projects'][number];

/** The projects the server stores (needs a token that reaches every project, when the server has tokens). */
export async function listProjects(target: ServerTarget): Promise<ProjectSummary[]> {
  const answer = await getJson(target, routes.projectList());
  return parseAnswer(projectListResponse, answer, target, 'the project list').projects;
}
