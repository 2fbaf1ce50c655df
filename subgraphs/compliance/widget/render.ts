// The sanctions widget's HTML (GET {compliance_url}/widget/sanctions, decision 0018), rendered on
// the server by preact-render-to-string: every value of the request and of the SDN list reaches
// the page as a text node or an attribute value, escaped by the renderer; nothing is concatenated
// into markup here. The page carries no script, and its one stylesheet is allowed by its hash.

import { createHash } from 'node:crypto';
import { type ComponentChildren, h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { SANCTIONS_BLOCK_SCORE, SANCTIONS_MATCH_THRESHOLD } from '../domain/index.js';
import type { SanctionsSignal, SanctionsVerdict, SanctionsWidgetScreen } from './domain/index.js';

/** Longest query the widget screens (a name or an address); a longer one is refused with 400. */
export const MAX_WIDGET_QUERY_LENGTH = 200;

export interface WidgetPage {
  /** The query as typed (kept in the form), or undefined for the empty form. */
  query?: string;
  screen?: SanctionsWidgetScreen;
  /** A message in place of a verdict (a refused query). */
  error?: string;
  /** The SDN list the verdict is computed from. */
  list: { asOf: string; stale: boolean };
}

const STYLESHEET = [
  'body{font-family:system-ui,sans-serif;margin:1rem;color:#1b1b1b;max-width:40rem}',
  'form{display:flex;gap:.5rem;flex-wrap:wrap}',
  'input{flex:1 1 16rem;padding:.4rem;font-size:1rem}',
  'button{padding:.4rem .9rem;font-size:1rem}',
  '.verdict{font-size:1.6rem;font-weight:700;margin:.8rem 0 .2rem}',
  '.APPROVED{color:#11622c}.FLAGGED{color:#8a5a00}.BLOCKED{color:#a4161a}',
  '.error{color:#a4161a}',
  'li{margin:.3rem 0}',
  'small{color:#555}',
].join('');

/**
 * The Content-Security-Policy of the page: nothing may load or run (default-src 'none', no script
 * at all), the inline stylesheet is allowed by its SHA-256 only, the form posts back here only,
 * and any site may frame it (the widget is made to be embedded; it changes no state).
 */
export const WIDGET_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'none'"],
  styleSrc: [`'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`],
  imgSrc: ["'none'"],
  formAction: ["'self'"],
  baseUri: ["'none'"],
  frameAncestors: ['*'],
} as const;

const VERDICT_TEXT: Readonly<Record<SanctionsVerdict, string>> = {
  APPROVED: 'No match on the OFAC SDN list.',
  FLAGGED: 'A possible match on the OFAC SDN list: review before proceeding.',
  BLOCKED: 'On the OFAC SDN list: do not proceed.',
};

function signalText(signal: SanctionsSignal): string {
  const programs = signal.programs.join(', ');
  if (signal.code === 'SDN_DIGITAL_CURRENCY_ADDRESS') {
    return `${signal.currency} address listed for ${signal.sdnName} (OFAC uid ${signal.uid}; ${programs})`;
  }
  const matched = signal.matchedName === signal.sdnName ? '' : ` as "${signal.matchedName}" (${signal.matchedAs})`;
  const strength = signal.code === 'SDN_NAME_MATCH' ? 'Match' : 'Possible match';
  return `${strength} ${signal.score.toFixed(2)}: ${signal.sdnName}${matched}, ${signal.type} (OFAC uid ${signal.uid}; ${programs})`;
}

function result(screen: SanctionsWidgetScreen): ComponentChildren {
  return h(
    'section',
    { id: 'result', 'data-verdict': screen.verdict, 'aria-live': 'polite' },
    h('p', { id: 'verdict', class: `verdict ${screen.verdict}` }, screen.verdict),
    h('p', { id: 'summary' }, VERDICT_TEXT[screen.verdict]),
    h('p', null, `Screened as ${screen.screenedAs === 'WALLET' ? 'a wallet address' : 'a name'}: `, h('q', { id: 'query' }, screen.query)),
    screen.signals.length > 0
      ? h(
          'ul',
          { id: 'signals' },
          screen.signals.map((signal) => h('li', { 'data-code': signal.code }, signalText(signal))),
        )
      : null,
  );
}

/** The whole page, as sent. */
export function renderWidgetPage(page: WidgetPage): string {
  const body = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charset: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, 'Sanctions screen'),
      h('style', null, STYLESHEET),
    ),
    h(
      'body',
      null,
      h('h1', null, 'Sanctions screen'),
      h(
        'form',
        { method: 'get', action: '' },
        h('label', { for: 'q' }, 'Wallet address or entity name'),
        h('input', { id: 'q', name: 'q', type: 'search', value: page.query ?? '', maxlength: MAX_WIDGET_QUERY_LENGTH, required: true, autocomplete: 'off' }),
        h('button', { type: 'submit' }, 'Screen'),
      ),
      page.error === undefined ? null : h('p', { id: 'error', class: 'error', role: 'alert' }, page.error),
      page.screen ? result(page.screen) : null,
      h(
        'p',
        null,
        h(
          'small',
          { id: 'source' },
          `OFAC SDN list as of ${page.list.asOf}${page.list.stale ? ' (older than 30 days: refresh it)' : ''}. Names match at ${SANCTIONS_MATCH_THRESHOLD.toFixed(2)} or above; ${SANCTIONS_BLOCK_SCORE.toFixed(2)} or above blocks.`,
        ),
      ),
    ),
  );
  return `<!doctype html>${renderToString(body)}`;
}
