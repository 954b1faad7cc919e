export { type Crumb, Page } from './page.js';
export { ViewBoundary } from './view-boundary.js';
