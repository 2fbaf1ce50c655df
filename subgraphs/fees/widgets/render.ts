// The oracles' HTML widgets (decision 0034), rendered on the server by preact-render-to-string: every
// value reaches the page as a text node or attribute value, escaped by the renderer; no script; the
// one stylesheet is allowed by its hash in the Content-Security-Policy.

import { createHash } from 'node:crypto';
import { type ComponentChildren, h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { EntityEsg } from '../upstream/compliance.js';
import type { Corridor } from './domain/index.js';

const STYLESHEET = [
  'body{font-family:system-ui,sans-serif;margin:1rem;color:#1b1b1b;max-width:44rem}',
  'table{border-collapse:collapse}td,th{padding:.25rem .6rem;text-align:left}',
  '.badge{font-weight:700;padding:.1rem .5rem;border-radius:.3rem}',
  '.OPTIMAL{background:#d7f5df;color:#11622c}.CAUTION{background:#fff1cc;color:#7a5000}.ADVERSE{background:#fde0e0;color:#a4161a}',
  'form{display:flex;gap:.5rem;flex-wrap:wrap}input{flex:1 1 16rem;padding:.4rem;font-size:1rem}button{padding:.4rem .9rem}',
  '.score{font-size:2rem;font-weight:700}.error{color:#a4161a}small{color:#555}',
].join('');

export const ORACLE_WIDGET_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`,
  "img-src 'none'",
  "form-action 'self'",
  "base-uri 'none'",
  'frame-ancestors *',
].join('; ');

function page(title: string, ...children: ComponentChildren[]): string {
  const document = h(
    'html',
    { lang: 'en' },
    h('head', null, h('meta', { charset: 'utf-8' }), h('title', null, title), h('style', { dangerouslySetInnerHTML: { __html: STYLESHEET } })),
    h('body', null, h('h1', null, title), ...children),
  );
  return `<!doctype html>${renderToString(document)}`;
}

export function renderCorridorsWidget(corridors: readonly Corridor[], context: { band: string | null; score: number | null; asOf: string }): string {
  return page(
    'USD corridors',
    h('p', { id: 'oracle' }, context.band === null ? 'No stability oracle run on record yet.' : `Stability oracle: ${context.band} (score ${context.score}).`),
    h(
      'table',
      { id: 'corridors' },
      h('thead', null, h('tr', null, h('th', null, 'Corridor'), h('th', null, 'State'), h('th', null, 'Why'))),
      h(
        'tbody',
        null,
        corridors.map((corridor) =>
          h(
            'tr',
            { 'data-corridor': corridor.corridor },
            h('td', null, corridor.corridor),
            h('td', null, h('span', { class: `badge ${corridor.state}` }, corridor.state)),
            h('td', null, corridor.reason),
          ),
        ),
      ),
    ),
    h('p', null, h('small', null, `Federal Reserve H.10 rates as of ${context.asOf}; rules in docs/stability-corridors.md.`)),
  );
}

/** What the entity ESG widget shows: the compliance oracle's entity ESG answer. */
export type EsgWidgetResult = EntityEsg;

export function renderEsgWidget(view: { query?: string; result?: EsgWidgetResult; error?: string; matchedName?: string }): string {
  return page(
    'Entity ESG score',
    h(
      'form',
      { method: 'get', action: '' },
      h('input', { name: 'q', value: view.query ?? '', placeholder: 'Company name or LEI', 'aria-label': 'Company name or LEI' }),
      h('button', { type: 'submit' }, 'Score'),
    ),
    view.error ? h('p', { id: 'error', class: 'error' }, view.error) : null,
    view.result
      ? h(
          'section',
          { id: 'result' },
          h('p', { id: 'entity' }, `${view.result.entityName} (LEI `, h('q', null, view.result.lei), ')'),
          view.matchedName ? h('p', { id: 'matched' }, 'Found by name: ', h('q', null, view.matchedName)) : null,
          h('p', { id: 'score', class: 'score' }, `${view.result.composite} / 100`),
          h(
            'ul',
            { id: 'breakdown' },
            h('li', { 'data-pillar': 'E' }, `Environmental ${view.result.environmental}`),
            h('li', { 'data-pillar': 'S' }, `Social ${view.result.social}`),
            h('li', { 'data-pillar': 'G' }, `Governance ${view.result.governance}`),
          ),
          h('p', null, h('small', null, `Fee tier ${view.result.feeTier}; coverage ${view.result.coverage}; methodology docs/entity-esg-methodology.md.`)),
        )
      : null,
    view.query !== undefined && !view.result && !view.error ? h('p', { id: 'query' }, 'Looked up: ', h('q', null, view.query)) : null,
  );
}
