import { call, monitorRuleName, objectCreate, tableAppend, versionSelector } from '@weft/protocol';
import { z } from 'zod';

// The protocol's own field schemas, taken from the messages that carry them,
// so path parameters obey exactly the rules bodies do.
const projectName = call.shape.project;
const callId = call.shape.id;
const objectName = objectCreate.shape.name;
const digest = tableAppend.shape.base;

/** Path parameter schemas of the /v1 routes. */
export const projectParams = z.object({ project: projectName });
export const callParams = z.object({ project: projectName, id: callId });
export const traceParams = z.object({ project: projectName, traceId: callId });
export const objectParams = z.object({ project: projectName, name: objectName });
export const objectVersionParams = z.object({
  project: projectName,
  name: objectName,
  version: versionSelector,
});
export const digestParams = z.object({ project: projectName, digest });
export const feedbackListParams = z.object({ project: projectName, callId });
/** A monitoring rule (alert, evaluator) or dashboard by name. */
export const ruleParams = z.object({ project: projectName, name: monitorRuleName });
/** A monitoring rule named in a body. */
export const ruleRef = z.strictObject({ project: projectName, name: monitorRuleName });
