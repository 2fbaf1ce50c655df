export interface HeatCell {
  symbol: string;
  status: string;
  signal: string;
}

/** The forecast heat-check as a grid of tiles: colour and the status word, so it reads without colour too. */
export function HeatMap({ cells, label }: { cells: readonly HeatCell[]; label: string }) {
  const counts = ['RED', 'YELLOW', 'GREEN'].map((status) => `${cells.filter((cell) => cell.status === status).length} ${status.toLowerCase()}`).join(', ');
  return (
    <ul class="heat-map" aria-label={`${label}: ${counts}`}>
      {cells.map((cell) => (
        <li key={cell.symbol} class={`heat-cell heat-${cell.status.toLowerCase()}`} data-symbol={cell.symbol}>
          <span class="heat-symbol">{cell.symbol}</span>
          <span class="heat-status">{cell.status}</span>
          <span class="heat-signal">{cell.signal}</span>
        </li>
      ))}
    </ul>
  );
}
