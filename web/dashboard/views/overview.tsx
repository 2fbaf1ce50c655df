import { useEffect, useState } from 'preact/hooks';
import { PaidGate } from '../components/paid-gate.js';
import { Part } from '../components/part.js';
import { errorsAt, errorsWithoutPath, type GraphQLError } from '../graphql.js';
import { useRequest } from '../use-request.js';
import {
  CascadeBody,
  CommodityBody,
  CurrencyBody,
  HEAT_FIELDS,
  HeatBody,
  type HeatPart,
  MacroBody,
  SIGNAL_FIELDS,
  type Signals,
  SovereignBody,
  STABILITY_FIELDS,
  StabilityBody,
  type StabilityPart,
  SupplyBody,
} from './overview-parts.js';

// Unpaid, the overview asks for the free parts and for riskDashboard's id: the server refuses the
// latter with its price, which the page shows before anyone pays. Paid, riskDashboard holds them all.
const FREE_QUERY = `query OverviewFree {
  stabilityHistory { overall }
  stabilityReliability { ${STABILITY_FIELDS} }
  heatCheck { ${HEAT_FIELDS} }
  riskDashboard { id }
}`;

const PAID_QUERY = `query Overview {
  stabilityHistory { overall }
  riskDashboard { id stability { ${STABILITY_FIELDS} } heatCheck { ${HEAT_FIELDS} } ${SIGNAL_FIELDS} }
}`;

interface OverviewData {
  stabilityHistory: Array<{ overall: string }> | null;
  stabilityReliability?: StabilityPart | null;
  heatCheck?: HeatPart | null;
  riskDashboard: ({ id: string; stability?: StabilityPart | null; heatCheck?: HeatPart | null } & Partial<Signals>) | null;
}

const SIGNAL_PARTS = [
  { key: 'macroStress', title: 'Macro stress', Body: MacroBody },
  { key: 'commodityStress', title: 'Commodity stress', Body: CommodityBody },
  { key: 'currencyStress', title: 'Currency stress', Body: CurrencyBody },
  { key: 'sovereignDebt', title: 'Sovereign debt', Body: SovereignBody },
  { key: 'supplyChain', title: 'Supply chain', Body: SupplyBody },
  { key: 'cascade', title: 'Cascade status', Body: CascadeBody },
] as const;

export function OverviewView({ apiKey }: { apiKey: string }) {
  const request = useRequest<OverviewData>();
  const [paid, setPaid] = useState(false);
  useEffect(() => void request.run(FREE_QUERY), [request.run]);
  const runPaid = () => {
    setPaid(true);
    void request.run(PAID_QUERY, {}, { apiKey });
  };
  const data = request.answer?.data;
  const errors = request.answer?.errors ?? [];
  const dashboard = data?.riskDashboard ?? null;
  const stabilityPath = paid ? ['riskDashboard', 'stability'] : ['stabilityReliability'];
  const heatPath = paid ? ['riskDashboard', 'heatCheck'] : ['heatCheck'];
  const band = data?.stabilityHistory?.[0]?.overall;
  const partErrors = (path: string[]): GraphQLError[] => [...errorsAt(errors, path), ...errorsAt(errors, path.slice(0, 1)).filter((error) => error.path?.length === 1), ...errorsWithoutPath(errors)];

  return (
    <section aria-labelledby="overview-title" aria-busy={request.loading}>
      <h2 id="overview-title">Overview</h2>
      <p class="lead">The composed risk view: stability, the forecast heat-check and the paid signals, each with its regime, data quality and as-of date.</p>
      {request.answer === undefined ? <p role="status">Loading the overview…</p> : null}
      {request.answer ? (
        <div class="parts">
          <Part id="stability" title="Stability score and band" value={paid ? dashboard?.stability : data?.stabilityReliability} errors={partErrors(stabilityPath)}>
            {(part) => <StabilityBody part={part} band={band} field={stabilityPath.join('.')} />}
          </Part>
          <Part id="heat-check" title="Forecast heat-check" value={paid ? dashboard?.heatCheck : data?.heatCheck} errors={partErrors(heatPath)}>
            {(part) => <HeatBody part={part} />}
          </Part>
          {paid ? (
            SIGNAL_PARTS.map(({ key, title, Body }) => (
              <Part key={key} id={key} title={title} value={dashboard?.[key] as never} errors={partErrors(['riskDashboard', key])}>
                {(part) => <Body part={part} />}
              </Part>
            ))
          ) : (
            <section class="part paid" id="paid-signals" aria-labelledby="paid-signals-title">
              <h3 id="paid-signals-title">Paid signals</h3>
              <p>Macro, commodity and currency stress, sovereign debt, supply chain and the cascade status come in one paid request (riskDashboard).</p>
              <PaidGate id="overview-gate" what="The risk dashboard" errors={errorsAt(errors, ['riskDashboard'])} apiKey={apiKey} loading={request.loading} onRun={runPaid} />
            </section>
          )}
        </div>
      ) : null}
    </section>
  );
}
