// Call query values from what people and agents write: times, sort orders, typed values.
export { CALL_SORT_FORMS, callSortOf } from './call-sort.js';
export { TIME_POINT_FORMS, timePointOf } from './time-point.js';
export { type FilterValue, typedValue } from './typed-value.js';
