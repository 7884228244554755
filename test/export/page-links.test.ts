/** Links of a mirrored page (src/export/page-links.ts): what the mirror does not serve is linked at the origin, nothing else changes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkUnservedToOrigin, servedBy } from '../../src/export/page-links.js';

const paths = [
  { path: '/api/gspc', keyedByQuery: true },
  { path: '/api/gspc?axis=jail', keyedByQuery: true },
  { path: '/cards/index.json', keyedByQuery: false },
  { path: '/dashboard', keyedByQuery: false },
];
const ORIGIN = 'https://board.example';
const page = [
  '<a href="/dashboard#top">',
  '<a href="/pricing">',
  '<a href="/api/gspc?axis=jail">',
  '<a href="/api/gspc?axis=swarm&amp;x=1">',
  '<a href="/cards/index.json?page=2">',
  '<a href="//cdn.example/x">',
  '<a href="https://elsewhere.example/pricing">',
  '<img src="/assets/logo.svg">',
].join('\n');

describe('page links on a mirror', () => {
  it('nginx: the paths with a query it mirrors stay; the rest go to the origin', () => {
    assert.equal(
      linkUnservedToOrigin(page, servedBy(paths, true), ORIGIN),
      [
        '<a href="/dashboard#top">',
        '<a href="https://board.example/pricing">',
        '<a href="/api/gspc?axis=jail">',
        '<a href="https://board.example/api/gspc?axis=swarm&amp;x=1">',
        '<a href="/cards/index.json?page=2">',
        '<a href="//cdn.example/x">',
        '<a href="https://elsewhere.example/pricing">',
        '<img src="https://board.example/assets/logo.svg">',
      ].join('\n'),
    );
  });

  it('a plain file server: no path with a query that selects the document, but a query it ignores is fine', () => {
    const served = servedBy(paths, false);
    assert.equal(served('/api/gspc?axis=jail'), false);
    assert.equal(served('/api/gspc'), true);
    assert.equal(served('/cards/index.json?page=2'), true);
    assert.equal(served('/dashboard#x'), true);
  });
});
