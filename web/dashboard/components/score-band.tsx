import { formatNumber } from '../format.js';

/**
 * The stability score on its 0-100 scale with the bands the oracle's thresholds draw (unstable below
 * caution, caution below stable), the band word itself as the oracle names it.
 */
export function ScoreBand({ score, caution, stable, band }: { score: number; caution: number; stable: number; band: string | undefined }) {
  const clamp = (value: number) => Math.max(0, Math.min(100, value));
  const summary = `Stability score ${formatNumber(score)} of 100${band ? `, band ${band}` : ''}; caution from ${caution}, stable from ${stable}.`;
  return (
    <figure class="score-band">
      <svg viewBox="0 0 100 12" preserveAspectRatio="none" role="img" aria-label={summary}>
        <rect class="band-unstable" x="0" y="2" width={clamp(caution)} height="8" />
        <rect class="band-caution" x={clamp(caution)} y="2" width={clamp(stable) - clamp(caution)} height="8" />
        <rect class="band-stable" x={clamp(stable)} y="2" width={100 - clamp(stable)} height="8" />
        <rect class="band-marker" x={clamp(score) - 0.6} y="0" width="1.2" height="12" />
      </svg>
      <figcaption>{summary}</figcaption>
    </figure>
  );
}
