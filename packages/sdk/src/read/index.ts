export { CallPages, type GetCallsOptions } from './call-pages.js';
