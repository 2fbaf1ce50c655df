import { useEffect } from 'preact/hooks';
import { Figure } from '../components/figure.js';
import { MissingNotice, Part, ProvenanceLine } from '../components/part.js';
import { TableScroll } from '../components/table-scroll.js';
import { TimeChart } from '../components/time-chart.js';
import { formatAsOf, formatDateTime, formatEpochSeconds, formatNumber } from '../format.js';
import { errorsAt, errorsWithoutPath, type GraphQLError } from '../graphql.js';
import { useRequest } from '../use-request.js';

const ORACLES_QUERY = `query Oracles {
  stabilityHistory { timestamp stabilityScore overall }
  stabilityStatus { status timestamp lastUpdate }
  stabilityReliability {
    isHealthy dataQuality asOf
    stability { currentScore threshold { stable caution } }
    oracle { status lastUpdate uptimePct updateFrequencySeconds }
    confidence { score scale }
    peg { deviationBps deviationThresholdBps }
  }
  railEsgScore { scores { environmental social governance average } fee { pct bps tier } dataQuality asOf }
  esgReliability {
    isHealthy dataQuality asOf
    oracle { status lastUpdate uptimePct updateFrequencySeconds }
    scores { current averageScore24h history { timestamp environmental social governance average } }
  }
  heatCheck { dataQuality asOf dataAgeDays inputs { input asOf dataAgeDays stale } }
}`;

interface RunState {
  status: string;
  lastUpdate: string;
  uptimePct: number;
  updateFrequencySeconds: number;
}

interface OraclesData {
  stabilityHistory: Array<{ timestamp: number; stabilityScore: number; overall: string }> | null;
  stabilityStatus: { status: string; timestamp: number; lastUpdate: string } | null;
  stabilityReliability: {
    isHealthy: boolean;
    dataQuality: string;
    asOf: string;
    stability: { currentScore: number; threshold: { stable: number; caution: number } };
    oracle: RunState;
    confidence: { score: number; scale: string };
    peg: { deviationBps: number | null; deviationThresholdBps: number };
  } | null;
  railEsgScore: { scores: { environmental: number; social: number; governance: number; average: number }; fee: { pct: number; bps: number; tier: string }; dataQuality: string; asOf: string } | null;
  esgReliability: {
    isHealthy: boolean;
    dataQuality: string;
    asOf: string;
    oracle: RunState;
    scores: { current: number; averageScore24h: number; history: Array<{ timestamp: number; environmental: number; social: number; governance: number; average: number }> };
  } | null;
  heatCheck: { dataQuality: string; asOf: string; dataAgeDays: number; inputs: Array<{ input: string; asOf: string; dataAgeDays: number; stale: boolean }> } | null;
}

const COLOURS = { score: '#1d4ed8', e: '#15803d', s: '#b45309', g: '#7c3aed', average: '#0f172a' };

function ScoreHistory({ history, reliability }: { history: NonNullable<OraclesData['stabilityHistory']>; reliability: OraclesData['stabilityReliability'] }) {
  const oldestFirst = [...history].reverse();
  const threshold = reliability?.stability.threshold;
  const newest = history[0];
  const summary = newest
    ? `${history.length} runs; newest ${formatNumber(newest.stabilityScore)} (${newest.overall}) at ${formatEpochSeconds(newest.timestamp)}${threshold ? `; caution from ${threshold.caution}, stable from ${threshold.stable}` : ''}.`
    : 'No runs on record.';
  const series = [{ label: 'Stability score', values: oldestFirst.map((entry) => entry.stabilityScore), colour: COLOURS.score }];
  return (
    <>
      <TimeChart
        id="stability-chart"
        title="Stability score history"
        xLabel="Run (UTC)"
        time
        x={oldestFirst.map((entry) => entry.timestamp)}
        series={series}
        summary={summary}
        formatX={formatEpochSeconds}
      />
      <ul class="bands" aria-label="Band of each run, newest first">
        {history.map((entry) => (
          <li key={entry.timestamp} class={`badge band-${entry.overall}`}>
            {formatEpochSeconds(entry.timestamp)}: {entry.overall}
          </li>
        ))}
      </ul>
    </>
  );
}

function EsgScores({ rail, reliability }: { rail: NonNullable<OraclesData['railEsgScore']>; reliability: OraclesData['esgReliability'] }) {
  const history = [...(reliability?.scores.history ?? [])].sort((a, b) => a.timestamp - b.timestamp);
  const series = [
    { label: 'Environmental', values: history.map((entry) => entry.environmental), colour: COLOURS.e },
    { label: 'Social', values: history.map((entry) => entry.social), colour: COLOURS.s },
    { label: 'Governance', values: history.map((entry) => entry.governance), colour: COLOURS.g },
    { label: 'Average', values: history.map((entry) => entry.average), colour: COLOURS.average },
  ];
  return (
    <>
      <dl class="figures">
        <Figure label="Environmental" value={rail.scores.environmental} field="railEsgScore.scores.environmental" />
        <Figure label="Social" value={rail.scores.social} field="railEsgScore.scores.social" />
        <Figure label="Governance" value={rail.scores.governance} field="railEsgScore.scores.governance" />
        <Figure label="Average" value={rail.scores.average} field="railEsgScore.scores.average" />
        <Figure label="ESG fee" value={`${formatNumber(rail.fee.bps, 2)} bps (${rail.fee.tier})`} field="railEsgScore.fee" />
      </dl>
      {history.length > 0 ? (
        <TimeChart
          id="esg-chart"
          title="ESG score history"
          xLabel="Run (UTC)"
          time
          x={history.map((entry) => entry.timestamp)}
          series={series}
          summary={`${history.length} runs; average now ${formatNumber(rail.scores.average)}.`}
          formatX={formatEpochSeconds}
        />
      ) : null}
      <ProvenanceLine dataQuality={rail.dataQuality} asOf={rail.asOf} />
    </>
  );
}

function OracleRuns({ data }: { data: OraclesData }) {
  const rows = [
    { name: 'Stability oracle', run: data.stabilityReliability?.oracle, healthy: data.stabilityReliability?.isHealthy },
    { name: 'ESG oracle', run: data.esgReliability?.oracle, healthy: data.esgReliability?.isHealthy },
  ];
  return (
    <TableScroll label="Oracle runs table">
      <table>
        <caption>Latest run of each oracle</caption>
        <thead>
          <tr>
            <th scope="col">Oracle</th>
            <th scope="col">Status</th>
            <th scope="col">Last run</th>
            <th scope="col">Uptime</th>
            <th scope="col">Runs every</th>
            <th scope="col">Healthy</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ name, run, healthy }) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{run?.status ?? 'no answer'}</td>
              <td>{run ? formatDateTime(run.lastUpdate) : 'n/a'}</td>
              <td>{run ? `${formatNumber(run.uptimePct)} %` : 'n/a'}</td>
              <td>{run ? `${run.updateFrequencySeconds} s` : 'n/a'}</td>
              <td>{healthy === undefined ? 'n/a' : healthy ? 'yes' : 'no'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function FeedHealth({ data }: { data: OraclesData }) {
  const feeds = [
    ...(data.stabilityReliability ? [{ feed: 'Stability oracle feeds', quality: data.stabilityReliability.dataQuality, asOf: data.stabilityReliability.asOf, stale: false }] : []),
    ...(data.railEsgScore ? [{ feed: 'ESG oracle feeds', quality: data.railEsgScore.dataQuality, asOf: data.railEsgScore.asOf, stale: false }] : []),
    ...(data.heatCheck?.inputs ?? []).map((input) => ({ feed: `Forecast: ${input.input}`, quality: data.heatCheck!.dataQuality, asOf: input.asOf, stale: input.stale })),
  ];
  return (
    <TableScroll label="Feed health table">
      <table>
        <caption>Data quality and as-of date of each feed</caption>
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Data quality</th>
            <th scope="col">As of</th>
            <th scope="col">Fresh</th>
          </tr>
        </thead>
        <tbody>
          {feeds.map((feed) => (
            <tr key={feed.feed}>
              <th scope="row">{feed.feed}</th>
              <td>{feed.quality}</td>
              <td>{formatAsOf(feed.asOf)}</td>
              <td>{feed.stale ? <span class="badge stale">stale: as of {formatAsOf(feed.asOf)}</span> : 'yes'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function OraclesView() {
  const request = useRequest<OraclesData>();
  useEffect(() => void request.run(ORACLES_QUERY), [request.run]);
  const data = request.answer?.data;
  const errors = request.answer?.errors ?? [];
  const at = (...fields: string[]): GraphQLError[] => [...fields.flatMap((field) => errorsAt(errors, [field])), ...errorsWithoutPath(errors)];
  const anyRun = data && (data.stabilityReliability || data.esgReliability) ? data : null;
  return (
    <section aria-labelledby="oracles-title" aria-busy={request.loading}>
      <h2 id="oracles-title">Oracles</h2>
      <p class="lead">The stability and ESG oracles: score history and bands, ESG scores, their latest runs and the freshness of their feeds.</p>
      {request.answer === undefined ? <p role="status">Loading the oracles…</p> : null}
      {request.answer ? (
        <div class="parts">
          <Part id="stability-history" title="Stability score history and bands" value={data?.stabilityHistory} errors={at('stabilityHistory')}>
            {(history) => <ScoreHistory history={history} reliability={data?.stabilityReliability ?? null} />}
          </Part>
          <Part id="esg-scores" title="ESG scores" value={data?.railEsgScore} errors={at('railEsgScore')}>
            {(rail) => <EsgScores rail={rail} reliability={data?.esgReliability ?? null} />}
          </Part>
          <Part id="oracle-runs" title="Oracle runs" value={anyRun} errors={at('stabilityReliability', 'esgReliability', 'stabilityStatus')}>
            {(value) => (
              <>
                {value.stabilityReliability ? null : <MissingNotice title="The stability oracle" errors={at('stabilityReliability')} />}
                {value.esgReliability ? null : <MissingNotice title="The ESG oracle" errors={at('esgReliability')} />}
                <OracleRuns data={value} />
                {value.stabilityStatus ? (
                  <p>
                    Latest stability run: {value.stabilityStatus.status} at {formatEpochSeconds(value.stabilityStatus.timestamp)}.
                  </p>
                ) : null}
                {value.stabilityReliability ? (
                  <p>
                    Confidence {formatNumber(value.stabilityReliability.confidence.score)} ({value.stabilityReliability.confidence.scale}); peg deviation{' '}
                    {value.stabilityReliability.peg.deviationBps === null ? 'not measured' : `${formatNumber(value.stabilityReliability.peg.deviationBps, 2)} bps`} (alert at{' '}
                    {value.stabilityReliability.peg.deviationThresholdBps} bps).
                  </p>
                ) : null}
              </>
            )}
          </Part>
          <Part
            id="feed-health"
            title="Feed health"
            value={data && (data.stabilityReliability || data.railEsgScore || data.heatCheck) ? data : null}
            errors={at('stabilityReliability', 'railEsgScore', 'heatCheck')}
          >
            {(value) => <FeedHealth data={value} />}
          </Part>
        </div>
      ) : null}
    </section>
  );
}
