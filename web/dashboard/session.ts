// The API key lives in this tab's sessionStorage only: gone when the tab closes, never in a cookie,
// never in localStorage, never in a URL. The institution key is not stored at all (component state).

const API_KEY = 'rail-dashboard.api-key';

export function storedApiKey(): string {
  try {
    return sessionStorage.getItem(API_KEY) ?? '';
  } catch {
    return '';
  }
}

export function storeApiKey(key: string): void {
  try {
    if (key) sessionStorage.setItem(API_KEY, key);
    else sessionStorage.removeItem(API_KEY);
  } catch {
    // Storage refused (private mode quota): the key stays in memory for this page.
  }
}
