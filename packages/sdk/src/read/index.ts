export { type CallPages, CallQueryPages, type GetCallsOptions } from './call-pages.js';
export { type ApiHost, apiOf, registerApiHost } from './api-host.js';
