import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** What a chart draws: one x per bucket (epoch ms) and a line per series. */
export interface ChartData {
  xs: readonly number[];
  series: readonly { label: string; values: readonly (number | null)[] }[];
  format: (value: number | null) => string;
}

/** A drawn chart: resize it to its box, or take it out of the page. */
export interface DrawnChart {
  resize(width: number): void;
  destroy(): void;
}

/** Line colours, in order; the first ones are the theme's (CSS variables), then fixed ones that meet AA on white. */
function palette(element: Element): string[] {
  const style = getComputedStyle(element);
  const accent = style.getPropertyValue('--accent').trim() || '#0550ae';
  const error = style.getPropertyValue('--error').trim() || '#a40e26';
  const success = style.getPropertyValue('--success').trim() || '#116329';
  return [accent, error, success, '#8250df', '#9a6700', '#1b7c83', '#bc4c00', '#57606a'];
}

/**
 * Draws a time series chart with uPlot into `element` (the module the chart
 * component loads on first use, so views without charts never load uPlot).
 * A click calls `onPick` with the bucket under the cursor and the line
 * nearest to it.
 */
export function drawChart(
  element: HTMLElement,
  data: ChartData,
  size: { width: number; height: number },
  onPick: (bucket: number, series: number) => void,
): DrawnChart {
  const colours = palette(element);
  const options: uPlot.Options = {
    width: size.width,
    height: size.height,
    series: [
      {},
      ...data.series.map((s, i) => ({
        label: s.label,
        stroke: colours[i % colours.length],
        width: 2,
        spanGaps: false,
        value: (_: uPlot, value: number | null) => data.format(value),
        points: { show: data.xs.length <= 60 },
      })),
    ],
    axes: [{}, { values: (_: uPlot, ticks: number[]) => ticks.map((t) => data.format(t)), size: 70 }],
    scales: { x: { time: true } },
    cursor: { drag: { x: false, y: false } },
    legend: { show: true },
  };
  // uPlot's time scale is in seconds.
  const aligned: uPlot.AlignedData = [
    data.xs.map((x) => x / 1_000),
    ...data.series.map((s) => s.values.map((v) => v)),
  ];
  const plot = new uPlot(options, aligned, element);
  plot.over.addEventListener('click', () => {
    const bucket = plot.cursor.idx;
    if (bucket === null || bucket === undefined) return;
    const top = plot.cursor.top ?? 0;
    const y = plot.posToVal(top, 'y');
    // The line nearest the click at that bucket.
    let nearest = 0;
    let distance = Number.POSITIVE_INFINITY;
    data.series.forEach((s, i) => {
      const value = s.values[bucket];
      if (value === null || value === undefined) return;
      if (Math.abs(value - y) < distance) {
        distance = Math.abs(value - y);
        nearest = i;
      }
    });
    onPick(bucket, nearest);
  });
  return {
    resize: (width) => plot.setSize({ width, height: size.height }),
    destroy: () => plot.destroy(),
  };
}
