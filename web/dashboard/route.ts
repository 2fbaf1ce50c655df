import { useEffect, useState } from 'preact/hooks';

export const VIEWS = [
  { id: 'overview', label: 'Overview' },
  { id: 'vendor', label: 'Vendor' },
  { id: 'payments', label: 'Payments' },
  { id: 'oracles', label: 'Oracles' },
  { id: 'models', label: 'Models' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

function viewOf(hash: string): ViewId {
  const id = hash.replace(/^#\/?/, '');
  return VIEWS.find((view) => view.id === id)?.id ?? 'overview';
}

/** Hash routing: #/overview, #/vendor, ... (the server serves the one page at /). */
export function useView(): ViewId {
  const [view, setView] = useState<ViewId>(() => viewOf(location.hash));
  useEffect(() => {
    const onChange = () => setView(viewOf(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return view;
}
