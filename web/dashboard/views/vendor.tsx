import { useState } from 'preact/hooks';
import { MissingNotice } from '../components/part.js';
import { useRequest } from '../use-request.js';
import { ASSESSMENT_QUERY, type AssessmentData, AssessmentParts } from './vendor-assessment.js';
import { type Candidate, candidatesOf, kindOf, MAX_NAME_LENGTH, SEARCH_QUERIES, type SearchData } from './vendor-search.js';

interface Checked {
  country?: string;
  amount: number;
  problems: string[];
}

/** The optional fields, checked before anything is sent (the server would refuse them with a 400). */
function checkOptions(country: string, amount: string): Checked {
  const problems: string[] = [];
  const trimmedCountry = country.trim();
  if (trimmedCountry && !/^[A-Za-z]{2}$/.test(trimmedCountry)) problems.push(`Country "${trimmedCountry}" is not a two-letter ISO 3166-1 code.`);
  const value = Number(amount);
  if (!Number.isFinite(value) || value <= 0 || value > 1e12) problems.push(`Amount "${amount}" is not a positive number of USD (at most 1e12).`);
  return { ...(trimmedCountry ? { country: trimmedCountry.toUpperCase() } : {}), amount: value, problems };
}

function SearchResults({ candidates, onAssess, searched }: { candidates: Candidate[]; onAssess: (candidate: Candidate) => void; searched: string }) {
  return (
    <section class="part" id="vendor-candidates" aria-labelledby="vendor-candidates-title">
      <h3 id="vendor-candidates-title">Vendors found</h3>
      <ul class="candidates">
        {candidates.map((candidate) => (
          <li key={`${candidate.lei}-${candidate.wallet}-${candidate.name}`}>
            <button type="button" onClick={() => onAssess(candidate)}>
              Assess {candidate.name}
            </button>{' '}
            <span class="detail">{candidate.detail}</span>
          </li>
        ))}
        <li>
          <button type="button" onClick={() => onAssess({ name: searched, lei: null, wallet: null, detail: '' })}>
            Assess the name “{searched}” as entered
          </button>
        </li>
      </ul>
    </section>
  );
}

export function VendorView({ apiKey }: { apiKey: string }) {
  const [text, setText] = useState('');
  const [country, setCountry] = useState('');
  const [amount, setAmount] = useState('10000');
  const [problems, setProblems] = useState<string[]>([]);
  const [searched, setSearched] = useState('');
  const [chosen, setChosen] = useState<{ candidate: Candidate; options: Checked } | undefined>(undefined);
  const search = useRequest<SearchData>();
  const assessment = useRequest<AssessmentData>();

  const assess = (candidate: Candidate, paid: boolean, options = chosen?.options) => {
    if (!options) return;
    setChosen({ candidate, options });
    const variables = { name: candidate.name, lei: candidate.lei, wallet: candidate.wallet, country: options.country ?? null, amount: options.amount };
    void assessment.run(ASSESSMENT_QUERY, variables, paid ? { apiKey } : {});
  };
  const onSearch = (event: Event) => {
    event.preventDefault();
    const query = text.trim();
    const checked = checkOptions(country, amount);
    const found = [
      ...checked.problems,
      ...(query ? [] : ['Enter a name, an LEI or a wallet address.']),
      ...(query.length > MAX_NAME_LENGTH ? [`The search text is longer than ${MAX_NAME_LENGTH} characters.`] : []),
    ];
    setProblems(found);
    if (found.length > 0) return;
    setSearched(query);
    setChosen({ candidate: { name: query, lei: null, wallet: null, detail: '' }, options: checked });
    void search.run(SEARCH_QUERIES[kindOf(query)], { text: query });
  };
  const searchErrors = search.answer?.errors ?? [];

  return (
    <section aria-labelledby="vendor-title">
      <h2 id="vendor-title">Vendor</h2>
      <p class="lead">Search by name, LEI or wallet, then assess the vendor: verification of payee, ESG, PEP screen, ownership chain, the fee of a payment and its risk tier.</p>
      <form class="form" onSubmit={onSearch} aria-describedby={problems.length > 0 ? 'vendor-problems' : undefined}>
        <div class="field">
          <label for="vendor-text">Name, LEI or wallet address</label>
          <input id="vendor-text" name="vendor-text" type="search" maxLength={MAX_NAME_LENGTH + 1} value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="vendor-country">Country (ISO code, optional)</label>
          <input id="vendor-country" name="vendor-country" value={country} onInput={(event) => setCountry(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="vendor-amount">Payment amount (USD)</label>
          <input id="vendor-amount" name="vendor-amount" inputMode="decimal" value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={search.loading}>
          Search
        </button>
      </form>
      {problems.length > 0 ? (
        <ul id="vendor-problems" class="problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {search.answer ? (
        <>
          {searchErrors.length > 0 ? <MissingNotice title="The search" errors={searchErrors} /> : null}
          <SearchResults candidates={candidatesOf(search.answer.data)} onAssess={(candidate) => assess(candidate, false)} searched={searched} />
        </>
      ) : null}
      {assessment.answer && chosen ? (
        <section class="assessment" aria-labelledby="assessment-title" aria-busy={assessment.loading}>
          <h3 id="assessment-title">Assessment of {chosen.candidate.name}</h3>
          <AssessmentParts answer={assessment.answer} apiKey={apiKey} loading={assessment.loading} onRunPaid={() => assess(chosen.candidate, true)} amountUsd={chosen.options.amount} />
        </section>
      ) : assessment.loading ? (
        <p role="status">Assessing…</p>
      ) : null}
    </section>
  );
}
