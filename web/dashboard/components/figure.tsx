import { formatNumber } from '../format.js';

/** A labelled figure; `field` names the GraphQL field it shows (tests find it by that name). */
export function Figure({ label, value, field, digits = 1, unit }: { label: string; value: number | string | null | undefined; field: string; digits?: number; unit?: string }) {
  const text = typeof value === 'number' || value === null || value === undefined ? formatNumber(value, digits) : value;
  return (
    <div class="figure">
      <dt>{label}</dt>
      <dd data-field={field}>
        {text}
        {unit && value !== null && value !== undefined ? <span class="unit"> {unit}</span> : null}
      </dd>
    </div>
  );
}
