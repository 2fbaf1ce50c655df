import { describe, expect, it } from 'vitest';
import { prefersHtml } from './explorer.js';

describe('prefersHtml: who gets the explorer instead of a GraphQL answer (Apollo landing-page rule)', () => {
  it.each([
    // Browsers navigating: text/html at q=1, JSON only through */* at q=0.8.
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8', true],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    // Same q: the more specific range wins (text/html named, JSON only through */*).
    ['text/html, */*', true],
    // Clients: no Accept, anything, JSON first, or JSON ranked higher.
    [undefined, false],
    ['*/*', false],
    ['application/json', false],
    ['application/json, text/html', false],
    ['text/html;q=0.5, application/json', false],
    ['application/graphql-response+json, application/json;q=0.9', false],
    ['multipart/mixed, text/html;q=0.9', false],
    // Same q and specificity: the range named first wins; one range matching both is a tie, which goes to JSON (*/* above).
    ['text/*, application/*', true],
    ['application/*, text/*', false],
    ['text/*;q=0.9, */*', false],
    ['text/html;q=0', false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});
