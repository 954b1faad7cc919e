import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChartData, DrawnChart } from './draw-uplot.js';

const HEIGHT = 180;

/**
 * A time series chart (uPlot, loaded on first use), sized to its box, with
 * `label` as its text alternative. Clicking a point calls `onPick` with its
 * bucket index and line index.
 */
export function TimeChart({
  label,
  data,
  onPick,
}: {
  label: string;
  data: ChartData;
  onPick: (bucket: number, series: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [failed, setFailed] = useState<string | undefined>(undefined);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    let chart: DrawnChart | undefined;
    let gone = false;
    const observer = new ResizeObserver(() => chart?.resize(element.clientWidth));
    import('./draw-uplot.js').then(
      ({ drawChart }) => {
        if (gone) return;
        chart = drawChart(element, data, { width: element.clientWidth, height: HEIGHT }, (b, s) =>
          pick.current(b, s),
        );
        observer.observe(element);
      },
      (error: Error) => setFailed(error.message),
    );
    return () => {
      gone = true;
      observer.disconnect();
      chart?.destroy();
    };
  }, [data]);
  if (failed !== undefined) return <p class="muted">Could not draw the chart: {failed}</p>;
  return <div class="time-chart" ref={box} role="img" aria-label={label} style={{ minHeight: HEIGHT }} />;
}
