/** The lead in words (issue 29), on the demo's governance axis: the figures of /api/models, in points. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leadSentence, pairOf, tieGroupsText } from '../../src/core/board/lead-sentence.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { demoApp } from '../helpers/app.js';

const { app } = demoApp();
const doc = (await app.inject({ url: '/api/models?axis=governance' })).json() as ModelsDocument;

describe('leadSentence', () => {
  it('names the lead, its interval, the items and what could not have been seen, in points', () => {
    assert.equal(
      leadSentence(doc, 'demo/atlas-70b', 'demo/borealis-34b'),
      'demo/atlas-70b leads demo/borealis-34b by 13.5 points (95% interval 7.8 to 19.1) on the 400 items both answered (SEPARATED after Holm); a gap smaller than 8.3 points could not have been seen with 80% power at this n.',
    );
  });
  it('the other way round: the pair is turned, the difference and its interval negated', () => {
    const p = pairOf(doc, 'demo/borealis-34b', 'demo/atlas-70b')!;
    const q = pairOf(doc, 'demo/atlas-70b', 'demo/borealis-34b')!;
    assert.deepEqual([p.b, p.c, p.difference], [q.c, q.b, -q.difference!]);
    assert.deepEqual(p.difference_interval, [-q.difference_interval![1], -q.difference_interval![0]]);
    assert.match(
      leadSentence(doc, 'demo/borealis-34b', 'demo/atlas-70b')!,
      /^demo\/borealis-34b trails demo\/atlas-70b by 13\.5 points \(95% interval -19\.1 to -7\.8\)/,
    );
  });
  it('tie groups by letter, public models only', () => {
    assert.equal(tieGroupsText(doc), 'a: demo/atlas-70b; b: demo/borealis-34b, demo/dune-8b-ft; c: demo/cirrus-8b');
  });
});
