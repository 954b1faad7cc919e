import {
  type CallDeleteRequest,
  type CallDeleteResponse,
  callDeleteResponse,
  type ProjectSettings,
  type ProjectSettingsResponse,
  projectSettingsResponse,
  routes,
} from '@weft/protocol';
import { getJson, requestJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

/** Deletes (or with `dryRun`, counts) whole traces a query selects; admin token only. */
export async function deleteCalls(
  target: ServerTarget,
  body: CallDeleteRequest,
): Promise<CallDeleteResponse> {
  const answer = await requestJson(target, 'DELETE', routes.callDelete(), body);
  return parseAnswer(callDeleteResponse, answer, target, 'deleting calls');
}

/** A project's retention and keep rules, with the server default and the retention in force. */
export async function readProjectSettings(
  target: ServerTarget,
  project: string,
): Promise<ProjectSettingsResponse> {
  const answer = await getJson(target, routes.projectSettings(project));
  return parseAnswer(projectSettingsResponse, answer, target, 'reading project settings');
}

/** Replaces a project's retention and keep rules; admin token only. */
export async function writeProjectSettings(
  target: ServerTarget,
  project: string,
  settings: ProjectSettings,
): Promise<ProjectSettingsResponse> {
  const answer = await requestJson(target, 'PUT', routes.projectSettings(project), settings);
  return parseAnswer(projectSettingsResponse, answer, target, 'changing project settings');
}
