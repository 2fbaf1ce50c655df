/** @jsxImportSource react */
import 'graphiql/style.css';
import './explorer.css';
import { GraphiQL } from 'graphiql';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createFetcher } from './fetcher';

/** The gateway from /explorer; from a GraphQL endpoint itself (a browser's GET /graphql), that endpoint. */
const endpoint = window.location.pathname === '/explorer' ? '/graphql' : window.location.pathname;

const DEFAULT_HEADERS = `{
  "X-API-Key": ""
}
`;

const DEFAULT_QUERY = `# The settlement rail's graph. Run with Ctrl-Enter (Cmd-Enter) or the run button.
# heatCheck is free; the schema is under "Show Documentation Explorer".
{
  heatCheck {
    asOf
    dataQuality
    commodities {
      symbol
      status
      signal
    }
  }
}
`;

function Explorer() {
  return (
    <>
      <p className="explorer-note" id="explorer-note">
        <strong>Paid fields cost money.</strong> Each call of a paid field (the intelligence endpoints, reports, …) is charged to the API key you put in Headers (
        <code>{'{"X-API-Key": "srk_…"}'}</code>); without a key it is refused with the x402 payment requirements and its price. Free fields need no key. The key stays in this tab&apos;s session
        storage, never on disk. Endpoint: <code>{endpoint}</code>.
      </p>
      <div className="explorer-ide">
        <GraphiQL
          fetcher={createFetcher(endpoint)}
          // Tabs, queries and (persisted headers) the API key in this tab's sessionStorage, gone with the tab: GraphiQL's default, localStorage, keeps them on disk.
          storage={window.sessionStorage}
          defaultQuery={DEFAULT_QUERY}
          defaultHeaders={DEFAULT_HEADERS}
          shouldPersistHeaders
          defaultEditorToolsVisibility="headers"
        >
          <GraphiQL.Logo>Settlement rail</GraphiQL.Logo>
        </GraphiQL>
      </div>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Explorer />
    </StrictMode>,
  );
}
