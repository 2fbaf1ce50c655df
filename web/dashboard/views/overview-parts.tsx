import { Figure } from '../components/figure.js';
import { HeatMap } from '../components/heat-map.js';
import { ProvenanceLine, Regime } from '../components/part.js';
import { ScoreBand } from '../components/score-band.js';
import { formatDateTime } from '../format.js';

// The overview's parts, each drawn from the fields its query fragment asks for.

export const STABILITY_FIELDS = 'isHealthy dataQuality asOf stability { currentScore averageScore24h threshold { stable caution } } oracle { status lastUpdate } decision { action }';
export const HEAT_FIELDS = 'asOf dataQuality dataAgeDays commodities { symbol status signal } inputs { input asOf stale }';
export const SIGNAL_FIELDS = `
  macroStress { stressIndex regime dataQuality asOf stale }
  commodityStress { stressIndex regime crossCommoditySignal dataQuality asOf stale }
  currencyStress { stressIndex dollarRegime dataQuality asOf stale }
  sovereignDebt { systemicSignals { globalDebtRegime contagionRisk } sovereigns { sovereign sustainabilityScore } dataQuality asOf stale }
  supplyChain { gscpiZScore regime goodsInflationLeadSignal dataQuality asOf stale }
  cascade { nervousSystem { systemicRiskScore overallStatus activeCascadeCount } dataQuality asOf stale }`;

export interface StabilityPart {
  isHealthy: boolean;
  dataQuality: string;
  asOf: string;
  stability: { currentScore: number; averageScore24h: number; threshold: { stable: number; caution: number } };
  oracle: { status: string; lastUpdate: string };
  decision: { action: string };
}

export interface HeatPart {
  asOf: string;
  dataQuality: string;
  dataAgeDays: number;
  commodities: Array<{ symbol: string; status: string; signal: string }>;
  inputs: Array<{ input: string; asOf: string; stale: boolean }>;
}

interface Envelope {
  dataQuality: string;
  asOf: string | null;
  stale: boolean;
}

export interface Signals {
  macroStress: (Envelope & { stressIndex: number; regime: string }) | null;
  commodityStress: (Envelope & { stressIndex: number; regime: string; crossCommoditySignal: string }) | null;
  currencyStress: (Envelope & { stressIndex: number; dollarRegime: string }) | null;
  sovereignDebt: (Envelope & { systemicSignals: { globalDebtRegime: string; contagionRisk: string }; sovereigns: Array<{ sovereign: string; sustainabilityScore: number | null }> }) | null;
  supplyChain: (Envelope & { gscpiZScore: number; regime: string; goodsInflationLeadSignal: string }) | null;
  cascade: (Envelope & { nervousSystem: { systemicRiskScore: number; overallStatus: string; activeCascadeCount: number } }) | null;
}

export function StabilityBody({ part, band, field }: { part: StabilityPart; band: string | undefined; field: string }) {
  return (
    <>
      <dl class="figures">
        <Figure label="Stability score" value={part.stability.currentScore} field={`${field}.stability.currentScore`} />
        <Figure label="Band" value={band ?? 'unknown'} field="stabilityHistory.overall" />
        <Figure label="24-hour average" value={part.stability.averageScore24h} field={`${field}.stability.averageScore24h`} />
        <Figure label="Oracle decision" value={part.decision.action} field={`${field}.decision.action`} />
      </dl>
      <ScoreBand score={part.stability.currentScore} caution={part.stability.threshold.caution} stable={part.stability.threshold.stable} band={band} />
      <p>
        Oracle run {part.oracle.status} at {formatDateTime(part.oracle.lastUpdate)}; {part.isHealthy ? 'healthy' : 'not healthy'}.
      </p>
      <ProvenanceLine dataQuality={part.dataQuality} asOf={part.asOf} />
    </>
  );
}

export function HeatBody({ part }: { part: HeatPart }) {
  const staleInputs = part.inputs.filter((input) => input.stale);
  return (
    <>
      <HeatMap cells={part.commodities} label="Commodity heat-check" />
      <p>
        Data {part.dataAgeDays} days old{staleInputs.length > 0 ? `; ${staleInputs.length} of ${part.inputs.length} inputs stale` : ''}.
      </p>
      <ProvenanceLine dataQuality={part.dataQuality} asOf={part.asOf} stale={staleInputs.length > 0} />
    </>
  );
}

export const MacroBody = ({ part }: { part: NonNullable<Signals['macroStress']> }) => (
  <>
    <Regime value={part.regime} />
    <dl class="figures">
      <Figure label="Stress index (0-100)" value={part.stressIndex} field="macroStress.stressIndex" />
    </dl>
    <ProvenanceLine {...part} />
  </>
);

export const CommodityBody = ({ part }: { part: NonNullable<Signals['commodityStress']> }) => (
  <>
    <Regime value={part.regime} />
    <dl class="figures">
      <Figure label="Stress index (0-100)" value={part.stressIndex} field="commodityStress.stressIndex" />
    </dl>
    <p>{part.crossCommoditySignal}</p>
    <ProvenanceLine {...part} />
  </>
);

export const CurrencyBody = ({ part }: { part: NonNullable<Signals['currencyStress']> }) => (
  <>
    <Regime label="Dollar regime" value={part.dollarRegime} />
    <dl class="figures">
      <Figure label="Stress index (0-100)" value={part.stressIndex} field="currencyStress.stressIndex" />
    </dl>
    <ProvenanceLine {...part} />
  </>
);

export const SovereignBody = ({ part }: { part: NonNullable<Signals['sovereignDebt']> }) => (
  <>
    <Regime label="Global debt regime" value={part.systemicSignals.globalDebtRegime} />
    <p>Contagion risk: {part.systemicSignals.contagionRisk}</p>
    <dl class="figures">
      {part.sovereigns.map((entry) => (
        <Figure key={entry.sovereign} label={`${entry.sovereign} sustainability`} value={entry.sustainabilityScore} field={`sovereignDebt.${entry.sovereign}`} />
      ))}
    </dl>
    <ProvenanceLine {...part} />
  </>
);

export const SupplyBody = ({ part }: { part: NonNullable<Signals['supplyChain']> }) => (
  <>
    <Regime value={part.regime} />
    <dl class="figures">
      <Figure label="GSCPI (standard deviations)" value={part.gscpiZScore} digits={2} field="supplyChain.gscpiZScore" />
    </dl>
    <p>{part.goodsInflationLeadSignal}</p>
    <ProvenanceLine {...part} />
  </>
);

export const CascadeBody = ({ part }: { part: NonNullable<Signals['cascade']> }) => (
  <>
    <Regime label="Cascade status" value={part.nervousSystem.overallStatus} />
    <dl class="figures">
      <Figure label="Systemic risk score (0-100)" value={part.nervousSystem.systemicRiskScore} field="cascade.nervousSystem.systemicRiskScore" />
      <Figure label="Active cascades" value={part.nervousSystem.activeCascadeCount} digits={0} field="cascade.nervousSystem.activeCascadeCount" />
    </dl>
    <p>
      The layers are drawn on the <a href="#/models">models view</a>.
    </p>
    <ProvenanceLine {...part} />
  </>
);
