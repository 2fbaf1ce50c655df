import { useState } from 'preact/hooks';

/** The API key form: kept in this tab's sessionStorage only, sent as X-API-Key on paid runs. */
export function KeyPanel({ apiKey, onChange }: { apiKey: string; onChange: (key: string) => void }) {
  const [draft, setDraft] = useState(apiKey);
  return (
    <form
      class="key-panel"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(draft.trim());
      }}
    >
      <label for="api-key">API key (paid parts)</label>
      <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck={false} value={draft} onInput={(event) => setDraft(event.currentTarget.value)} />
      <button type="submit">Use key</button>
      <button
        type="button"
        disabled={!apiKey}
        onClick={() => {
          setDraft('');
          onChange('');
        }}
      >
        Forget key
      </button>
      <p class="hint" id="api-key-state" aria-live="polite">
        {apiKey ? 'A key is set for this browser tab (sessionStorage; gone when the tab closes).' : 'No key: free parts only.'}
      </p>
    </form>
  );
}
