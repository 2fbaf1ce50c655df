import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatNumber } from '../format.js';
import { TableScroll } from './table-scroll.js';

/** uPlot spreads a lone point over years of empty axis: an hour (or one unit) either side of it instead. */
function singlePointRange(x: number, time: boolean): [number, number] {
  const half = time ? 3600 : 1;
  return [x - half, x + half];
}

export interface Series {
  label: string;
  values: readonly number[];
  colour: string;
}

/**
 * A uPlot line chart sized to its container, with a text alternative: the summary as its label and
 * every point in a table below it (a chart alone says nothing to a screen reader).
 */
export function TimeChart(props: { id: string; title: string; xLabel: string; x: readonly number[]; series: readonly Series[]; summary: string; time?: boolean; formatX?: (x: number) => string }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || props.x.length === 0) return;
    const options: uPlot.Options = {
      width: Math.max(240, element.clientWidth),
      height: 220,
      scales: { x: { time: props.time ?? false, ...(props.x.length === 1 ? { range: singlePointRange(props.x[0]!, props.time ?? false) } : {}) } },
      legend: { show: false },
      axes: [{ label: props.xLabel }, {}],
      series: [{ label: props.xLabel }, ...props.series.map((series) => ({ label: series.label, stroke: series.colour, width: 2 }))],
    };
    const chart = new uPlot(options, [[...props.x], ...props.series.map((series) => [...series.values])], element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(240, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [props.x, props.series, props.xLabel, props.time]);
  const formatX = props.formatX ?? ((x: number) => String(x));
  return (
    <figure class="time-chart" id={props.id}>
      <div class="chart-canvas" ref={holder} role="img" aria-label={`${props.title}. ${props.summary}`} />
      <figcaption>
        <ul class="chart-key">
          {props.series.map((series) => (
            <li key={series.label}>
              <svg viewBox="0 0 12 12" aria-hidden="true" focusable="false">
                <rect width="12" height="12" fill={series.colour} />
              </svg>
              {series.label}
            </li>
          ))}
        </ul>
        {props.summary}
      </figcaption>
      <details>
        <summary>{props.title}: the figures</summary>
        <TableScroll label={`${props.title} table`}>
          <table>
            <caption>{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.xLabel}</th>
                {props.series.map((series) => (
                  <th scope="col" key={series.label}>
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.x.map((x, index) => (
                <tr key={x}>
                  <th scope="row">{formatX(x)}</th>
                  {props.series.map((series) => (
                    <td key={series.label}>{formatNumber(series.values[index], 3)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </figure>
  );
}
