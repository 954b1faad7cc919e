export { CallDetail } from './call-detail.js';
export { DetailSection } from './detail-section.js';
