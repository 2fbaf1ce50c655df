import { useEffect, useState } from 'preact/hooks';
import { Figure } from '../components/figure.js';
import { Ladder, type Rung } from '../components/ladder.js';
import { PaidGate } from '../components/paid-gate.js';
import { MissingNotice, Part, ProvenanceLine, Regime } from '../components/part.js';
import { TimeChart } from '../components/time-chart.js';
import { formatNumber } from '../format.js';
import { errorsAt, errorsWithoutPath, type GraphQLError, isPaymentRequired } from '../graphql.js';
import { useRequest } from '../use-request.js';

// Loaded: the free node catalogue. "Show the price" asks for the run unpaid (the server answers
// the price of each paid field); "Run with my API key" sends the same request with the key.
const MODELS_QUERY = `query Models($origin: String!, $magnitude: Float!, $epochs: Int, $run: Boolean!) {
  contagionNodes { count nodes { id label domain } }
  contagion(origin: $origin, magnitude: $magnitude, epochs: $epochs) @include(if: $run) {
    origin { id label } regime
    summary { peakSystemR peakAtWeek finalSystemR contained }
    epochs { epoch systemR activeInfections newInfections recovered }
    dataQuality asOf stale
  }
  cascade @include(if: $run) {
    nervousSystem { systemicRiskScore overallStatus layers { layer name status score basis } }
    dataQuality asOf stale
  }
}`;

interface Contagion {
  origin: { id: string; label: string };
  regime: string;
  summary: { peakSystemR: number; peakAtWeek: number; finalSystemR: number; contained: boolean };
  epochs: Array<{ epoch: number; systemR: number; activeInfections: number; newInfections: number; recovered: number }>;
  dataQuality: string;
  asOf: string | null;
  stale: boolean;
}

interface ModelsData {
  contagionNodes: { count: number; nodes: Array<{ id: string; label: string; domain: string }> } | null;
  contagion?: Contagion | null;
  cascade?: { nervousSystem: { systemicRiskScore: number; overallStatus: string; layers: Rung[] }; dataQuality: string; asOf: string | null; stale: boolean } | null;
}

function ContagionBody({ run }: { run: Contagion }) {
  const x = run.epochs.map((epoch) => epoch.epoch);
  const series = [
    { label: 'Active infections', values: run.epochs.map((epoch) => epoch.activeInfections), colour: '#b91c1c' },
    { label: 'New infections', values: run.epochs.map((epoch) => epoch.newInfections), colour: '#b45309' },
    { label: 'Recovered', values: run.epochs.map((epoch) => epoch.recovered), colour: '#15803d' },
  ];
  const summary = `Shock at ${run.origin.label}: peak system R ${formatNumber(run.summary.peakSystemR, 2)} in week ${run.summary.peakAtWeek}, ${run.summary.contained ? 'contained' : 'not contained'} by week ${x.at(-1) ?? 0}.`;
  return (
    <>
      <Regime value={run.regime} />
      <dl class="figures">
        <Figure label="Peak system R" value={run.summary.peakSystemR} digits={2} field="contagion.summary.peakSystemR" />
        <Figure label="Peak at week" value={run.summary.peakAtWeek} digits={0} field="contagion.summary.peakAtWeek" />
        <Figure label="Final system R" value={run.summary.finalSystemR} digits={2} field="contagion.summary.finalSystemR" />
      </dl>
      <TimeChart id="contagion-chart" title="Contagion curves" xLabel="Week" x={x} series={series} summary={summary} />
      <ProvenanceLine {...run} />
    </>
  );
}

interface FormProps {
  nodes: ReadonlyArray<{ id: string; label: string; domain: string }>;
  origin: string;
  setOrigin: (value: string) => void;
  magnitude: string;
  setMagnitude: (value: string) => void;
  epochs: string;
  setEpochs: (value: string) => void;
  disabled: boolean;
  onSubmit: () => void;
}

function ContagionForm({ nodes, origin: chosenOrigin, setOrigin, magnitude, setMagnitude, epochs, setEpochs, disabled, onSubmit }: FormProps) {
  return (
    <form
      class="form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div class="field">
        <label for="contagion-origin">Origin of the shock</label>
        <select id="contagion-origin" name="contagion-origin" value={chosenOrigin} onChange={(event) => setOrigin(event.currentTarget.value)}>
          {nodes.map((node) => (
            <option key={node.id} value={node.id}>
              {node.label} ({node.domain})
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="contagion-magnitude">Magnitude (1 to 100)</label>
        <input id="contagion-magnitude" name="contagion-magnitude" inputMode="decimal" value={magnitude} onInput={(event) => setMagnitude(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="contagion-epochs">Weeks (1 to 12)</label>
        <input id="contagion-epochs" name="contagion-epochs" inputMode="numeric" value={epochs} onInput={(event) => setEpochs(event.currentTarget.value)} />
      </div>
      <button type="submit" disabled={disabled}>
        Show the price of this run
      </button>
    </form>
  );
}

export function ModelsView({ apiKey }: { apiKey: string }) {
  const request = useRequest<ModelsData>();
  const [origin, setOrigin] = useState('');
  const [magnitude, setMagnitude] = useState('50');
  const [epochs, setEpochs] = useState('8');
  const [problem, setProblem] = useState('');
  useEffect(() => void request.run(MODELS_QUERY, { origin: '', magnitude: 0, run: false }), [request.run]);
  const nodes = request.answer?.data?.contagionNodes?.nodes ?? [];
  const chosenOrigin = origin || nodes[0]?.id || '';
  const send = (paid: boolean) => {
    const size = Number(magnitude);
    const weeks = Number(epochs);
    if (!Number.isFinite(size) || size < 1 || size > 100) return setProblem(`Magnitude "${magnitude}" is not a number from 1 to 100.`);
    if (!Number.isInteger(weeks) || weeks < 1 || weeks > 12) return setProblem(`Weeks "${epochs}" is not a whole number from 1 to 12.`);
    setProblem('');
    void request.run(MODELS_QUERY, { origin: chosenOrigin, magnitude: size, epochs: weeks, run: true }, paid ? { apiKey } : {});
  };
  const data = request.answer?.data;
  const errors = request.answer?.errors ?? [];
  const at = (field: string): GraphQLError[] => [...errorsAt(errors, [field]), ...errorsWithoutPath(errors)];
  const paidErrors = [...errorsAt(errors, ['contagion']), ...errorsAt(errors, ['cascade'])];
  const ran = data?.contagion !== undefined || data?.cascade !== undefined || paidErrors.length > 0;

  return (
    <section aria-labelledby="models-title" aria-busy={request.loading}>
      <h2 id="models-title">Models</h2>
      <p class="lead">The contagion simulation (a week-by-week epidemic of a shock over the 30-node network) and the seven cascade layers.</p>
      {data?.contagionNodes === null ? <MissingNotice title="The node catalogue" errors={at('contagionNodes')} /> : null}
      <ContagionForm
        nodes={nodes}
        origin={chosenOrigin}
        setOrigin={setOrigin}
        magnitude={magnitude}
        setMagnitude={setMagnitude}
        epochs={epochs}
        setEpochs={setEpochs}
        disabled={request.loading || nodes.length === 0}
        onSubmit={() => send(false)}
      />
      {problem ? (
        <p class="problems" role="alert">
          {problem}
        </p>
      ) : null}
      {isPaymentRequired(paidErrors) ? (
        <PaidGate id="models-gate" what="The contagion run and the cascade layers" errors={paidErrors} apiKey={apiKey} loading={request.loading} onRun={() => send(true)} />
      ) : null}
      {ran && !isPaymentRequired(paidErrors) ? (
        <div class="parts">
          <Part id="contagion" title="Contagion curves" value={data?.contagion} errors={at('contagion')}>
            {(run) => <ContagionBody run={run} />}
          </Part>
          <Part id="cascade-layers" title="Cascade layers" value={data?.cascade} errors={at('cascade')}>
            {(cascade) => (
              <>
                <Regime label="Cascade status" value={cascade.nervousSystem.overallStatus} />
                <dl class="figures">
                  <Figure label="Systemic risk score (0-100)" value={cascade.nervousSystem.systemicRiskScore} field="cascade.nervousSystem.systemicRiskScore" />
                </dl>
                <Ladder rungs={cascade.nervousSystem.layers} label="Cascade layers, from the exogenous shock (1) to risk assets (7)" />
                <ProvenanceLine {...cascade} />
              </>
            )}
          </Part>
        </div>
      ) : null}
    </section>
  );
}
