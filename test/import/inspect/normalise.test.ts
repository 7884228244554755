/**
 * The scorer semantics the reader restates, case by case against Inspect's source
 * (inspect_ai/scorer/_common.py `match_str`, _match.py, _choice.py, _util/text.py): each
 * expectation is what Inspect's own comparison decides for the same answer and target.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gradingFor } from '../../../src/import/inspect/grading.js';
import { judgeOf } from '../../../src/import/inspect/judge.js';
import { parseJson } from '../../../src/import/inspect/lenient-json.js';
import { normaliseNumber, stripNumericPunctuation } from '../../../src/import/inspect/match.js';

/** Whether the board's exact grading (label ∈ gold, after normalise) calls the answer correct. */
function grades(scorer: string, params: Record<string, unknown>, answer: string, target: string | string[]) {
  const g = gradingFor(scorer, params);
  const label = g.label(answer, null, target);
  const gold = g.gold(target);
  const golds = (Array.isArray(gold) ? gold : [gold]).map(g.normalise);
  return label !== null && golds.includes(g.normalise(label));
}

describe('match (defaults: location end, ignore_case, edge punctuation)', () => {
  const cases: [string, string | string[], boolean][] = [
    ['Yes', ' Yes', true], // the popularity log: target " Yes", answer "Yes"
    ['No.', ' No', true], // log_streaming.eval: Inspect scored this C
    ['YES', 'yes', true],
    ['The answer is Paris', 'Paris', true], // end: the answer ends with the target
    ['Paris is the answer', 'Paris', false],
    ['No', ' Yes', false],
    ['B', ['A', 'B'], true], // a list target: any of them
    ['C', ['A', 'B'], false],
  ];
  for (const [answer, target, expected] of cases)
    it(`${JSON.stringify(answer)} vs ${JSON.stringify(target)}: ${expected}`, () => {
      assert.equal(grades('match', {}, answer, target), expected);
    });

  it('the label is the target found at the location, else the whole normalised answer', () => {
    const g = gradingFor('match', {});
    assert.equal(g.label('The answer is Paris.', null, 'Paris'), 'paris');
    assert.equal(g.label('  Maybe!  ', null, 'Yes'), 'maybe');
    assert.deepEqual(g.gold([' Yes', 'Sure ']), ['yes', 'sure']);
    assert.equal(g.label(null, 'Yes', 'Yes'), 'yes', 'no answer in the score: the raw response');
    assert.equal(g.label(null, null, 'Yes'), null);
  });

  it('location begin / any / exact, and ignore_case false', () => {
    assert.equal(grades('match', { location: 'begin' }, 'Paris is the answer', 'Paris'), true);
    assert.equal(grades('match', { location: 'begin' }, 'The answer is Paris', 'Paris'), false);
    assert.equal(grades('match', { location: 'any' }, 'I think Paris, yes', 'Paris'), true);
    assert.equal(grades('match', { location: 'exact' }, 'Paris.', 'paris'), true);
    assert.equal(grades('match', { location: 'exact' }, 'It is Paris', 'Paris'), false);
    assert.equal(grades('match', { ignore_case: false }, 'paris', 'Paris'), false);
  });

  it('normalise is idempotent (the importer applies it to labels already normalised)', () => {
    const g = gradingFor('match', {});
    for (const s of [' Yes. ', '"No"', 'The answer is (B)']) assert.equal(g.normalise(g.normalise(s)), g.normalise(s));
  });
});

describe('match with numeric=True', () => {
  const numeric = { numeric: true };
  it('numbers compare after normalisation: the last number at end', () => {
    assert.equal(grades('match', numeric, 'The total is $1,234.', '1234'), true);
    assert.equal(grades('match', numeric, 'So 25', '5'), false, 'endswith would say yes, the number says no');
    assert.equal(grades('match', numeric, 'It is 3.0', '3'), true);
    assert.equal(grades('match', numeric, '12 then 42.70', '42.7'), true);
    assert.equal(grades('match', numeric, '42.7 then 12', '42.7'), false);
    assert.equal(grades('match', { ...numeric, location: 'any' }, '42.7 then 12', '42.7'), true);
    assert.equal(grades('match', numeric, 'It is (42)!', '42'), true);
  });

  it('the label is the extracted number; a non-numeric target falls back to text', () => {
    const g = gradingFor('match', numeric);
    assert.equal(g.label('I get 1,000 apples', null, '999'), '1000');
    assert.equal(g.gold('1,000'), '1000');
    assert.equal(grades('match', numeric, 'sixty percent', 'sixty percent'), true);
  });

  it("Python's format(x, '.5g') (values checked with CPython 3)", () => {
    const python: [string, string][] = [
      ['42.7', '42.7'],
      ['100000', '1e+05'],
      ['123456', '1.2346e+05'],
      ['0.0001', '0.0001'],
      ['0.00001', '1e-05'],
      ['12345', '12345'],
      ['1234.5678', '1234.6'],
      ['3.0', '3'],
      ['-2.5', '-2.5'],
      ['99999.5', '1e+05'],
      ['0.000123456', '0.00012346'],
      ['1e21', '1e+21'],
      ['-0.0', '-0'],
      ['abc', 'abc'],
    ];
    for (const [input, out] of python) assert.equal(normaliseNumber(input), out, input);
  });

  it("strip_numeric_punctuation: currency, separators, * and _, and a '.' not before a digit", () => {
    assert.equal(stripNumericPunctuation('$1,234.50.'), '1234.50');
    assert.equal(stripNumericPunctuation('**€12_000**'), '12000');
  });
});

describe('choice and includes', () => {
  it('choice: letters; a list target is one set, which the answer must equal', () => {
    const g = gradingFor('choice', {});
    assert.equal(g.gold('A'), 'A');
    assert.equal(g.gold(['C', 'A']), 'A, C');
    assert.equal(g.label('C, A', null, 'A'), 'A, C');
    assert.equal(grades('choice', {}, 'A, C', ['A', 'C']), true);
    assert.equal(grades('choice', {}, 'A', ['A', 'C']), false, 'Inspect wants every target letter');
    assert.deepEqual(g.menu(['x', 'y', 'z']), ['A', 'B', 'C']);
  });

  it('includes: the casefolded target anywhere in the answer', () => {
    assert.equal(grades('includes', {}, 'I would say HELLO there', 'hello'), true);
    assert.equal(grades('includes', {}, 'goodbye', 'hello'), false);
  });

  it('any other scorer: whitespace stripped only', () => {
    const g = gradingFor('closeness_log', {});
    assert.equal(g.label(' 42.7 ', null, '42.7'), '42.7');
    assert.equal(g.normalise(' A b '), 'A b');
  });
});

describe('judge detection and Python JSON', () => {
  it('names the judge from the scorer name or its settings, and nothing else', () => {
    assert.ok(judgeOf('inspect_ai/model_graded_qa')?.includes('model_graded_qa'));
    assert.ok(
      judgeOf('simpleqa_scorer', { grader_model: { model: 'google/gemini-2.0-flash-001' } })?.includes('gemini'),
    );
    assert.equal(judgeOf('match', {}, {}), null);
    assert.equal(judgeOf('choice', { grader_model: null }), null);
  });

  it('bare NaN / Infinity / -Infinity outside strings; the same words inside strings untouched', () => {
    const doc = parseJson('{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN and Infinity"}', 'x') as any;
    assert.ok(Number.isNaN(doc.a));
    assert.deepEqual(doc.b, [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    assert.equal(doc.c, 'NaN and Infinity');
    assert.deepEqual(parseJson('{"q": "say \\"NaN\\"", "v": NaN}', 'x'), { q: 'say "NaN"', v: Number.NaN });
    assert.throws(() => parseJson('{"a": nan}', 'the-file'), /the-file: not JSON/);
  });
});
