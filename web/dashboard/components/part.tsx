import type { ComponentChildren } from 'preact';
import { formatAsOf, humanize } from '../format.js';
import { type GraphQLError } from '../graphql.js';

export interface Provenance {
  dataQuality?: string | null;
  asOf?: string | null;
  stale?: boolean | null;
}

/** dataQuality, as-of and a "stale" badge with its date when the data is older than its rhythm allows. */
export function ProvenanceLine({ dataQuality, asOf, stale }: Provenance) {
  return (
    <p class="provenance">
      {dataQuality ? <span class={`badge quality quality-${dataQuality.toLowerCase()}`}>{dataQuality}</span> : null}
      <span class="as-of">as of {formatAsOf(asOf)}</span>
      {stale ? <span class="badge stale">stale: as of {formatAsOf(asOf)}</span> : null}
    </p>
  );
}

export function Regime({ label = 'Regime', value }: { label?: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <p class="regime">
      {label}: <strong class={`regime-value regime-${value.toLowerCase()}`}>{humanize(value)}</strong>
    </p>
  );
}

/** The notice shown in place of a part that did not answer, with the server's reason. */
export function MissingNotice({ title, errors }: { title: string; errors: readonly GraphQLError[] }) {
  const codes = [...new Set(errors.map((error) => error.extensions?.code).filter((code): code is string => Boolean(code)))];
  return (
    <div class="notice" role="status">
      <p>
        <strong>{title} is unavailable.</strong> {errors[0]?.message ?? 'The server sent no data for this part.'}
      </p>
      {codes.length > 0 ? <p class="code">Code: {codes.join(', ')}</p> : null}
    </div>
  );
}

/**
 * One part of a view: its heading, and either its body (from the data that answered) or the notice
 * on why it is missing. `headingLevel` keeps the headings in order under the view's h2.
 */
export function Part<T>(props: {
  id: string;
  title: string;
  value: T | null | undefined;
  errors: readonly GraphQLError[];
  headingLevel?: 3 | 4;
  /** Shown instead of the notice when the part is null without an error (not applicable, e.g. no wallet given). */
  absentText?: string;
  /** Shown instead of the notice when the part is missing because it is paid (the price and the run button). */
  gate?: ComponentChildren;
  children: (value: T) => ComponentChildren;
}) {
  const Heading = props.headingLevel === 4 ? 'h4' : 'h3';
  return (
    <section class="part" id={props.id} aria-labelledby={`${props.id}-title`} data-state={props.value ? 'ready' : props.errors.length === 0 && props.absentText ? 'absent' : 'missing'}>
      <Heading id={`${props.id}-title`}>{props.title}</Heading>
      {props.value ? (
        props.children(props.value)
      ) : props.errors.length === 0 && props.absentText ? (
        <p class="absent">{props.absentText}</p>
      ) : props.gate ? (
        props.gate
      ) : (
        <MissingNotice title={props.title} errors={props.errors} />
      )}
    </section>
  );
}
