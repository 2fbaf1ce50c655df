import { useState } from 'preact/hooks';
import { KeyPanel } from './components/key-panel.js';
import { useView, type ViewId, VIEWS } from './route.js';
import { storeApiKey, storedApiKey } from './session.js';
import { ModelsView } from './views/models.js';
import { OraclesView } from './views/oracles.js';
import { OverviewView } from './views/overview.js';
import { PaymentsView } from './views/payments.js';
import { VendorView } from './views/vendor.js';

function CurrentView({ view, apiKey }: { view: ViewId; apiKey: string }) {
  switch (view) {
    case 'overview':
      return <OverviewView apiKey={apiKey} />;
    case 'vendor':
      return <VendorView apiKey={apiKey} />;
    case 'payments':
      return <PaymentsView />;
    case 'oracles':
      return <OraclesView />;
    case 'models':
      return <ModelsView apiKey={apiKey} />;
  }
}

export function App() {
  const view = useView();
  const [apiKey, setApiKey] = useState(storedApiKey);
  const changeKey = (key: string) => {
    storeApiKey(key);
    setApiKey(key);
  };
  return (
    <>
      <a class="skip-link" href="#view">
        Skip to the view
      </a>
      <header class="top">
        <h1>Settlement rail risk dashboard</h1>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((entry) => (
              <li key={entry.id}>
                <a href={`#/${entry.id}`} aria-current={entry.id === view ? 'page' : undefined}>
                  {entry.label}
                </a>
              </li>
            ))}
            <li>
              <a href="/graphql">GraphQL explorer</a>
            </li>
          </ul>
        </nav>
        <KeyPanel apiKey={apiKey} onChange={changeKey} />
      </header>
      <div id="view" class="view" tabIndex={-1}>
        <CurrentView key={view} view={view} apiKey={apiKey} />
      </div>
      <footer>
        <p>Every figure comes from one GraphQL request per view to /graphql on this server.</p>
      </footer>
    </>
  );
}
