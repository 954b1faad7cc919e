export { AdminRequiredError } from './admin-required-error.js';
export { bodyLimit } from './body-limit.js';
export { bodyShape, MAX_BODY_DEPTH } from './body-shape.js';
export { ForbiddenError } from './forbidden-error.js';
export { type ProjectLocation, projectAccess, projectLocation } from './project-access.js';
export { adminActor, requireAdmin } from './require-admin.js';
export { type RequireTokenOptions, requestScope, requireToken } from './require-token.js';
export { ALL_PROJECTS, type ProjectScope, TokenRegistry } from './token-registry.js';
export { type RequestPart, validate } from './validate.js';
