import {
  type DatasetFromCalls,
  datasetFromCallsResponse,
  type ObjectLabelSet,
  type ObjectRead,
  type ObjectListResponse,
  objectLabel,
  objectLabelsResponse,
  objectListResponse,
  objectRead,
  routes,
} from '@weft/protocol';
import { getJson, postJson, type ServerTarget } from '../http/index.js';
import { parseAnswer } from './parse-answer.js';

// Objects (datasets among them) and their labels.

/** An object name with its latest version, as the server lists it. */
export type ObjectSummary = ObjectListResponse['objects'][number];

/** A project's object names with their latest version. */
export async function listObjects(target: ServerTarget, project: string): Promise<ObjectSummary[]> {
  const answer = await getJson(target, routes.objectList(project));
  return parseAnswer(objectListResponse, answer, target, 'the object list').objects;
}

/** One version of an object (`latest`, `v3`, a label or a digest) with its value. */
export async function readObject(
  target: ServerTarget,
  project: string,
  name: string,
  version = 'latest',
): Promise<ObjectRead> {
  const answer = await getJson(target, routes.objectRead(project, name, version));
  return parseAnswer(objectRead, answer, target, `object ${name}:${version}`);
}

/** The labels of an object name and the versions they point at. */
export async function objectLabels(target: ServerTarget, project: string, name: string) {
  const answer = await getJson(target, routes.objectLabels(project, name));
  return parseAnswer(objectLabelsResponse, answer, target, `the labels of ${name}`).labels;
}

/** Points a label at a version (moving it when set). */
export async function setObjectLabel(target: ServerTarget, body: ObjectLabelSet) {
  const answer = await postJson(target, routes.objectLabelSet(), body);
  return parseAnswer(objectLabel, answer, target, 'setting a label');
}

/** Publishes a dataset version made of calls (appended to the latest with `append`). */
export async function datasetFromCalls(target: ServerTarget, body: DatasetFromCalls) {
  const answer = await postJson(target, routes.datasetFromCalls(), body);
  return parseAnswer(datasetFromCallsResponse, answer, target, 'adding calls to a dataset');
}
