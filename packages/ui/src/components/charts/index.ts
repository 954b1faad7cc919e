export type { ChartData } from './draw-uplot.js';
export { TimeChart } from './time-chart.js';
