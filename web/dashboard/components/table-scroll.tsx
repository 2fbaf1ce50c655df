import type { ComponentChildren } from 'preact';

/** A wide table scrolls sideways in its own box (reachable by keyboard) instead of widening the page. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={`${label} (scrolls sideways)`}>
      {children}
    </div>
  );
}
