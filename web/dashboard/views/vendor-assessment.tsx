import { Figure } from '../components/figure.js';
import { type OwnershipNodeView, OwnershipTree } from '../components/ownership-tree.js';
import { PaidGate } from '../components/paid-gate.js';
import { Part } from '../components/part.js';
import { formatDateTime, formatNumber, humanize } from '../format.js';
import { errorsAt, errorsWithoutPath, type GraphQLAnswer, type GraphQLError, isPaymentRequired } from '../graphql.js';

export const ASSESSMENT_QUERY = `query VendorAssessment($name: String!, $lei: String, $wallet: String, $country: String, $amount: Float!) {
  vendorAssessment(name: $name, lei: $lei, wallet: $wallet, country: $country, amountUsd: $amount) {
    vendorRiskScore riskTier recommendation generatedAt
    entity { name lei }
    breakdown { complianceScore esgScore }
    compliance { verdict signals sanctions pep fatfBlacklist }
    esg { score tier source }
    pepScreen { riskLevel eddRequired pepMatches { name matchedName position countryName matchConfidence score } }
    vop { result score resolvedBy registeredName registeredLei proceedSafe message }
    legalEntity {
      lei legalName
      esg { composite environmental social governance feeTier coverage }
      ownershipChain { result reasons chain { lei name role jurisdiction leiStatus sanctions { hit } } }
      paymentFee(amountUsd: $amount) { quoteId fees { total { bps usd } } input { amountUsd esgScore } }
    }
  }
}`;

interface Assessment {
  vendorRiskScore: number;
  riskTier: string;
  recommendation: string;
  generatedAt: string;
  entity: { name: string; lei: string | null };
  breakdown: { complianceScore: number; esgScore: number };
  compliance: { verdict: string; signals: string[]; sanctions: boolean; pep: boolean; fatfBlacklist: boolean };
  esg: { score: number; tier: string; source: string };
  pepScreen: {
    riskLevel: string;
    eddRequired: boolean;
    pepMatches: Array<{ name: string; matchedName: string; position: string; countryName: string; matchConfidence: string; score: number }>;
  } | null;
  vop: { result: string; score: number | null; resolvedBy: string; registeredName: string | null; registeredLei: string | null; proceedSafe: boolean; message: string } | null;
  legalEntity: {
    lei: string;
    legalName: string;
    esg: { composite: number; environmental: number; social: number; governance: number; feeTier: string; coverage: string } | null;
    ownershipChain: { result: string; reasons: string[]; chain: OwnershipNodeView[] } | null;
    paymentFee: { quoteId: string; fees: { total: { bps: number; usd: string } }; input: { amountUsd: number; esgScore: number } } | null;
  } | null;
}

export interface AssessmentData {
  vendorAssessment: Assessment | null;
}

const ROOT = ['vendorAssessment'];

function RiskSummary({ view }: { view: Assessment }) {
  return (
    <>
      <p class={`verdict verdict-${view.compliance.verdict.toLowerCase()}`} data-field="vendorAssessment.compliance.verdict">
        {view.compliance.verdict}
      </p>
      <dl class="figures">
        <Figure label="Risk tier" value={view.riskTier} field="vendorAssessment.riskTier" />
        <Figure label="Vendor risk score (0-100)" value={view.vendorRiskScore} field="vendorAssessment.vendorRiskScore" />
        <Figure label="Compliance score" value={view.breakdown.complianceScore} field="vendorAssessment.breakdown.complianceScore" />
        <Figure label="ESG score" value={view.breakdown.esgScore} field="vendorAssessment.breakdown.esgScore" />
      </dl>
      <p>{view.recommendation}</p>
      <p>Signals: {view.compliance.signals.length > 0 ? view.compliance.signals.map(humanize).join(', ') : 'none'}.</p>
      <p class="provenance">Assessed at {formatDateTime(view.generatedAt)}.</p>
    </>
  );
}

function EsgBody({ view }: { view: Assessment }) {
  const pillars = view.legalEntity?.esg;
  return (
    <>
      <dl class="figures">
        <Figure label="ESG score" value={view.esg.score} field="vendorAssessment.esg.score" />
        <Figure label="Tier" value={view.esg.tier} field="vendorAssessment.esg.tier" />
        {pillars ? <Figure label="Environmental" value={pillars.environmental} field="legalEntity.esg.environmental" /> : null}
        {pillars ? <Figure label="Social" value={pillars.social} field="legalEntity.esg.social" /> : null}
        {pillars ? <Figure label="Governance" value={pillars.governance} field="legalEntity.esg.governance" /> : null}
      </dl>
      <p class="provenance">
        Source: {view.esg.source}
        {pillars ? `; coverage ${pillars.coverage.toLowerCase()}` : ''}
      </p>
    </>
  );
}

function PepBody({ pep }: { pep: NonNullable<Assessment['pepScreen']> }) {
  return (
    <>
      <dl class="figures">
        <Figure label="PEP risk level" value={pep.riskLevel} field="vendorAssessment.pepScreen.riskLevel" />
        <Figure label="Enhanced due diligence" value={pep.eddRequired ? 'required' : 'not required'} field="vendorAssessment.pepScreen.eddRequired" />
      </dl>
      {pep.pepMatches.length === 0 ? (
        <p>No politically exposed person matched.</p>
      ) : (
        <ul>
          {pep.pepMatches.map((match) => (
            <li key={`${match.matchedName}-${match.position}`}>
              {match.matchedName}, {match.position} ({match.countryName}): {match.matchConfidence.toLowerCase()} confidence, {formatNumber(match.score, 2)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function VopBody({ vop }: { vop: NonNullable<Assessment['vop']> }) {
  return (
    <>
      <dl class="figures">
        <Figure label="VoP result" value={vop.result} field="vendorAssessment.vop.result" />
        <Figure label="Score" value={vop.score} field="vendorAssessment.vop.score" />
        <Figure label="Proceed" value={vop.proceedSafe ? 'safe' : 'not safe'} field="vendorAssessment.vop.proceedSafe" />
      </dl>
      <p>
        {vop.message} (resolved by {humanize(vop.resolvedBy)}
        {vop.registeredName ? `; registered as ${vop.registeredName}` : ''})
      </p>
    </>
  );
}

export function AssessmentParts(props: { answer: GraphQLAnswer<AssessmentData>; apiKey: string; loading: boolean; onRunPaid: () => void; amountUsd: number }) {
  const errors = props.answer.errors;
  const view = props.answer.data?.vendorAssessment;
  const at = (path: string[]): GraphQLError[] => [...errorsAt(errors, path), ...errorsWithoutPath(errors)];
  if (!view)
    return (
      <Part headingLevel={4} id="vendor-risk" title="Risk tier" value={null} errors={at(ROOT)}>
        {() => null}
      </Part>
    );
  const entityPath = [...ROOT, 'legalEntity'];
  const noLei = 'No LEI in the registry for this vendor: search by LEI, or by a name the registry knows.';
  const vopErrors = errorsAt(errors, [...ROOT, 'vop']);
  return (
    <div class="parts">
      <Part headingLevel={4} id="vendor-risk" title="Risk tier" value={view} errors={[]}>
        {(value) => <RiskSummary view={value} />}
      </Part>
      <Part
        id="vendor-vop"
        title="Verification of payee"
        value={view.vop}
        errors={vopErrors}
        absentText="No wallet for this vendor: VoP checks a name against a wallet."
        gate={
          isPaymentRequired(vopErrors) ? <PaidGate id="vop-gate" what="Verification of payee" errors={vopErrors} apiKey={props.apiKey} loading={props.loading} onRun={props.onRunPaid} /> : undefined
        }
      >
        {(vop) => <VopBody vop={vop} />}
      </Part>
      <Part headingLevel={4} id="vendor-esg" title="ESG" value={view} errors={[]}>
        {(value) => <EsgBody view={value} />}
      </Part>
      <Part headingLevel={4} id="vendor-pep" title="PEP screen" value={view.pepScreen} errors={at([...ROOT, 'pepScreen'])}>
        {(pep) => <PepBody pep={pep} />}
      </Part>
      <Part headingLevel={4} id="vendor-ownership" title="Ownership chain" value={view.legalEntity?.ownershipChain} errors={at([...entityPath, 'ownershipChain'])} absentText={noLei}>
        {(chain) => (
          <>
            <p>
              Result: <strong data-field="legalEntity.ownershipChain.result">{chain.result}</strong>
              {chain.reasons.length > 0 ? ` (${chain.reasons.map(humanize).join(', ')})` : ''}
            </p>
            <OwnershipTree chain={chain.chain} />
          </>
        )}
      </Part>
      <Part
        headingLevel={4}
        id="vendor-fee"
        title={`Fee of a payment of ${formatNumber(props.amountUsd, 2)} USD`}
        value={view.legalEntity?.paymentFee}
        errors={at([...entityPath, 'paymentFee'])}
        absentText={noLei}
      >
        {(fee) => (
          <>
            <dl class="figures">
              <Figure label="Total fee" value={fee.fees.total.usd} field="legalEntity.paymentFee.fees.total.usd" unit="USD" />
              <Figure label="Basis points" value={fee.fees.total.bps} field="legalEntity.paymentFee.fees.total.bps" digits={2} />
              <Figure label="At ESG score" value={fee.input.esgScore} field="legalEntity.paymentFee.input.esgScore" />
            </dl>
            <p class="provenance">Quote {fee.quoteId}</p>
          </>
        )}
      </Part>
    </div>
  );
}
