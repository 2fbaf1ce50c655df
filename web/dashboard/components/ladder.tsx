import { formatNumber } from '../format.js';

export interface Rung {
  layer: number;
  name: string;
  status: string;
  score: number | null;
  basis: string;
}

/** Regime ladder: one rung per layer, top layer first, its score as a bar (SVG attributes, no inline style). */
export function Ladder({ rungs, label }: { rungs: readonly Rung[]; label: string }) {
  return (
    <ol class="ladder" aria-label={label}>
      {rungs.map((rung) => (
        <li key={rung.layer} class={`rung status-${rung.status.toLowerCase()}`} data-layer={rung.layer}>
          <span class="rung-name">
            {rung.layer}. {rung.name}
          </span>
          <svg class="rung-bar" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" focusable="false">
            <rect class="rung-track" x="0" y="0" width="100" height="6" />
            <rect class="rung-fill" x="0" y="0" width={Math.max(0, Math.min(100, rung.score ?? 0))} height="6" />
          </svg>
          <span class="rung-status">
            {rung.status} {rung.score === null ? '(no score)' : `(${formatNumber(rung.score)})`}
          </span>
          <span class="rung-basis">{rung.basis}</span>
        </li>
      ))}
    </ol>
  );
}
