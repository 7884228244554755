/**
 * The methodology promises that a reader can re-derive every number by hand (issue 28: its
 * Wilson formula, evaluated in doubles as the page wrote it, gave COPA's lower bound
 * 0.5839825677481065 while the board said …063). The page now writes the order the board
 * computes in, and a JavaScript function of it; this test takes that function from
 * docs/methodology.md itself (the /methodology page renders the same file) and checks it gives
 * the board's exact bits for every interval of the demo board and of boards imported from real
 * lm-eval and HELM runs: each row's interval, each interval of its separation evidence, and
 * every model's interval on its signed card.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/repo.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, importQuiet, lmEval, SSH } from '../import/helpers.js';

const doc = readFileSync(join(repoRoot, 'docs', 'methodology.md'), 'utf8');
const code = /```js\n(\s*function wilson[\s\S]*?)```/.exec(doc)?.[1];
const wilson = new Function(`${code}; return wilson;`)() as (k: number, n: number) => [number, number];

interface Side {
  k: number;
  n: number;
  interval: [number, number];
  model: string;
}
interface Row {
  axis: string;
  interval?: [number, number];
  separation_evidence?: { leader?: Side; next_best?: Side };
}

/** Every interval of a served board: [where, k, parsed, served]. */
async function intervals(corpus?: string): Promise<[string, number, number, [number, number]][]> {
  const { app } = demoApp(corpus);
  const board = (await app.inject({ url: '/api/gspc' })).json() as { axes: Row[] };
  const out: [string, number, number, [number, number]][] = [];
  for (const row of board.axes) {
    const ev = row.separation_evidence;
    for (const [side, s] of [
      ['leader', ev?.leader],
      ['next_best', ev?.next_best],
    ] as const)
      if (s?.interval) out.push([`${row.axis} ${side} ${s.model}`, s.k, s.n, s.interval]);
    if (row.interval && ev?.leader) out.push([`${row.axis} row`, ev.leader.k, ev.leader.n, row.interval]);
  }
  // Every model's interval, as its signed card states it (the rows' leaders among them).
  const bundle = (await app.inject({ url: '/cards-bundle.json' })).json() as {
    cards: {
      axis: string;
      subject: string;
      measurement?: { correct?: number; parsed?: number; interval?: [number, number] };
    }[];
  };
  for (const c of bundle.cards) {
    const m = c.measurement;
    if (m?.interval && m.correct !== undefined && m.parsed !== undefined)
      out.push([`${c.axis} card ${c.subject}`, m.correct, m.parsed, m.interval]);
  }
  return out;
}

function assertBits(all: [string, number, number, [number, number]][]) {
  const wrong = all
    .map(([where, k, n, served]) => [where, wilson(k, n), served] as const)
    .filter(([, mine, served]) => mine[0] !== served[0] || mine[1] !== served[1])
    .map(([where, mine, served]) => `${where}: the page gives ${mine.join(', ')}, the board ${served.join(', ')}`);
  assert.deepEqual(wrong, []);
}

describe("the methodology's Wilson formula, followed in IEEE doubles, gives the board's bits", () => {
  it('is in docs/methodology.md as code a reader can run', () => {
    assert.ok(code, 'a ```js block with function wilson');
    assert.deepEqual(wilson(0, 10_000_000)[0], 0);
    assert.deepEqual(wilson(5, 5)[1], 1);
  });

  it('every interval of the demo board', async () => {
    const all = await intervals();
    assert.ok(all.length >= 40, `${all.length} intervals`);
    assertBits(all);
  });

  it('every interval of boards imported from real lm-eval (COPA) and HELM (MMLU philosophy) runs', async () => {
    const copa = join(tempDir(), 'copa');
    await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into: copa });
    const copaIntervals = await intervals(copa);
    assert.ok(copaIntervals.some(([where, , , i]) => where.startsWith('copa leader') && i[0] === 0.5839825677481063));
    assertBits(copaIntervals);
    const helm = join(tempDir(), 'helm');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], { into: helm, asOf: '2025-06-30' });
    const helmIntervals = await intervals(helm);
    assert.ok(helmIntervals.length > 0);
    assertBits(helmIntervals);
  });
});
