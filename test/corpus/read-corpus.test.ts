import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoCopy, demoCorpus } from '../helpers/tmp.js';

function problemsOf(dir: string): CorpusProblem[] {
  try {
    readCorpus(dir);
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', `expected corpus_invalid, got ${String(e)}`);
    return e.details!.problems as CorpusProblem[];
  }
  assert.fail('the corpus was accepted');
}

const editJson = (dir: string, path: string, edit: (v: Record<string, unknown>) => void) => {
  const v = JSON.parse(readFileSync(join(dir, path), 'utf8')) as Record<string, unknown>;
  edit(v);
  writeFileSync(join(dir, path), `${JSON.stringify(v, null, 2)}\n`);
};

describe('corpus reader', () => {
  it('reads the demo corpus: 22 axes, every per-item file, files sorted', () => {
    const c = readCorpus(demoCorpus);
    assert.equal(c.definitions.length, 22);
    assert.equal(c.tables.size, 9);
    assert.deepEqual(
      c.files.map((f) => f.path),
      [...c.files.map((f) => f.path)].sort(),
    );
  });

  it('reports a bad row with file, line, field and reason, and loads nothing', () => {
    const dir = demoCopy();
    const path = join(dir, 'peritem/safety.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[6] = JSON.stringify({ item: 'safety/0001', model: 'x', gold: 'refuse' }); // no label
    lines[9] = '{not json';
    writeFileSync(path, lines.join('\n'));
    const problems = problemsOf(dir);
    assert.deepEqual(
      problems.find((p) => p.line === 7),
      {
        file: 'peritem/safety.jsonl',
        line: 7,
        field: 'label',
        reason: 'is required: the extracted label, or null when no label could be read',
      },
    );
    const syntax = problems.find((p) => p.line === 10);
    assert.equal(syntax?.file, 'peritem/safety.jsonl');
    assert.match(syntax!.reason, /^invalid JSON/);
  });

  it('refuses duplicate (item, model) rows and a gold label that changes between models', () => {
    const dir = demoCopy();
    const path = join(dir, 'peritem/governance.jsonl');
    const first = readFileSync(path, 'utf8').split('\n')[0]!;
    const changed = JSON.parse(first) as Record<string, unknown>;
    changed.model = 'demo/new-model';
    changed.gold = changed.gold === 'A' ? 'B' : 'A';
    appendFileSync(path, `${first}\n${JSON.stringify(changed)}\n`);
    const problems = problemsOf(dir);
    assert.ok(problems.some((p) => p.field === 'item' && /duplicate row/.test(p.reason) && p.line === 2001));
    assert.ok(problems.some((p) => p.field === 'gold' && /differs from line 1/.test(p.reason) && p.line === 2002));
  });

  it('clusters (issue 29): all rows of an axis carry one or none, one per item; some but not all is refused at file:line', () => {
    const dir = demoCopy();
    const path = join(dir, 'peritem/governance.jsonl');
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const withCluster = (l: string, c: string) => JSON.stringify({ ...(JSON.parse(l) as object), cluster: c });
    // Every row but line 7 carries its item's passage: refused at line 7.
    writeFileSync(
      path,
      `${lines.map((l, i) => (i === 6 ? l : withCluster(l, `p-${(JSON.parse(l) as { item: string }).item.slice(-2)}`))).join('\n')}\n`,
    );
    const partial = problemsOf(dir).filter((p) => p.field === 'cluster');
    assert.equal(partial.length, 1);
    assert.deepEqual([partial[0]!.file, partial[0]!.line], ['peritem/governance.jsonl', 7]);
    assert.match(
      partial[0]!.reason,
      /rows carry a cluster and this one does not \(first with one: line 1\): all rows of an axis carry one, or none/,
    );
    // Every row with one, but an item whose models name two clusters.
    writeFileSync(
      path,
      `${lines.map((l, i) => withCluster(l, i === 1 ? 'other' : `p-${(JSON.parse(l) as { item: string }).item.slice(-2)}`)).join('\n')}\n`,
    );
    const twice = problemsOf(dir).filter((p) => p.field === 'cluster');
    assert.ok(twice.some((p) => p.line === 2 && /cluster differs from line 1 for the same item/.test(p.reason)));
    // Every row with its item's cluster: read.
    writeFileSync(
      path,
      `${lines.map((l) => withCluster(l, `p-${(JSON.parse(l) as { item: string }).item.slice(-2)}`)).join('\n')}\n`,
    );
    assert.ok(
      readCorpus(dir)
        .tables.get('governance')!
        .cluster.every((c) => c !== undefined),
    );
  });

  it('places a schema error in a JSON file on its line', () => {
    const dir = demoCopy();
    writeFileSync(
      join(dir, 'axes/safety.json'),
      '{\n  "axis": "safety",\n  "family": "behavioural",\n  "kind": "model-comparison",\n  "status": "MEASURD",\n  "bench": "b", "task": "t", "dataset": "d"\n}\n',
    );
    const problems = problemsOf(dir);
    const p = problems.find((x) => x.field === 'status');
    assert.equal(p?.file, 'axes/safety.json');
    assert.equal(p?.line, 5);
  });

  it('refuses gold labels outside the declared menu, a stray file, a missing axis file, and a wrong n', () => {
    const dir = demoCopy();
    editJson(dir, 'axes/safety.json', (v) => {
      v.labels = ['refuse', 'comply'];
    });
    writeFileSync(join(dir, 'axes/unlisted.json'), '{}');
    rmSync(join(dir, 'axes/affect.json'));
    editJson(dir, 'axes/governance.json', (v) => {
      v.n = 399;
    });
    const problems = problemsOf(dir);
    assert.ok(
      problems.some(
        (p) =>
          p.file === 'peritem/safety.jsonl' &&
          p.field === 'gold' &&
          /not in the axis's exact-label menu/.test(p.reason),
      ),
    );
    assert.ok(problems.some((p) => p.file === 'axes/unlisted.json' && /not listed/.test(p.reason)));
    assert.ok(problems.some((p) => p.file === 'axes/affect.json' && /missing/.test(p.reason)));
    assert.ok(
      problems.some((p) => p.file === 'axes/governance.json' && p.field === 'n' && /400 distinct items/.test(p.reason)),
    );
  });

  it('refuses a MEASURED comparison with neither rows nor results, and a facts axis whose evidence is missing', () => {
    const dir = demoCopy();
    rmSync(join(dir, 'peritem/care.jsonl'));
    rmSync(join(dir, 'evidence/openness/openness-declaration.json'));
    const problems = problemsOf(dir);
    assert.ok(problems.some((p) => p.file === 'axes/care.json' && p.field === 'status'));
    assert.ok(problems.some((p) => p.file === 'axes/openness.json' && p.field === 'evidence'));
  });

  it('refuses comments and trailing commas in JSON files (plain JSON only)', () => {
    const dir = demoCopy();
    writeFileSync(
      join(dir, 'lane.json'),
      '[\n  // a comment\n  {"id": "x", "lane": "human-vs-ai", "title": "t"},\n]\n',
    );
    const problems = problemsOf(dir);
    assert.ok(problems.every((p) => p.file === 'lane.json'));
    assert.equal(problems[0]!.line, 2);
  });

  it('refuses a directory that is not a corpus', () => {
    const dir = demoCopy();
    rmSync(join(dir, 'board.json'));
    assert.throws(
      () => readCorpus(dir),
      (e: unknown) => e instanceof GspcError && e.code === 'corpus_invalid' && /no board.json/.test(e.message),
    );
  });
});

describe('text encoding of corpus files (issue 16)', () => {
  it('a UTF-8 byte order mark is refused with its file and line, and nothing else is reported', () => {
    const dir = demoCopy();
    const axis = join(dir, 'axes', 'safety.json');
    writeFileSync(axis, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(axis)]));
    assert.deepEqual(problemsOf(dir), [
      {
        file: 'axes/safety.json',
        line: 1,
        field: '',
        reason: 'starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without a BOM',
      },
    ]);
  });

  it('bytes that are not UTF-8 are refused at their line (never read as U+FFFD)', () => {
    const dir = demoCopy();
    const rows = join(dir, 'peritem', 'governance.jsonl');
    const lines = readFileSync(rows).toString('latin1').split('\n');
    // A Latin-1 "é" (0xE9) inside the third row's first string.
    lines[2] = lines[2]!.replace('"', '"\u00e9');
    writeFileSync(rows, Buffer.from(lines.join('\n'), 'latin1'));
    const [p, ...rest] = problemsOf(dir);
    assert.deepEqual(rest, []);
    assert.equal(p!.file, 'peritem/governance.jsonl');
    assert.equal(p!.line, 3);
    assert.match(p!.reason, /^is not UTF-8: byte 0xE9 at byte \d+ \(column 3\) starts no valid character/);
  });

  it('an item id holding a lone surrogate (JSON allows "\\ud800") is refused at its line; a pair is text', () => {
    const dir = demoCopy();
    const rows = join(dir, 'peritem', 'governance.jsonl');
    const lines = readFileSync(rows, 'utf8').split('\n');
    const row = JSON.parse(lines[2]!) as { item: string };
    // Written as an escape, since a lone surrogate has no UTF-8 bytes of its own.
    lines[2] = lines[2]!.replace(JSON.stringify(row.item), `"${row.item}\\ud800x"`);
    writeFileSync(rows, lines.join('\n'));
    const [p, ...rest] = problemsOf(dir);
    assert.deepEqual(rest, []);
    assert.deepEqual([p!.file, p!.line, p!.field], ['peritem/governance.jsonl', 3, 'item']);
    assert.match(p!.reason, /^must be well-formed Unicode: it holds a lone surrogate/);
    // A surrogate pair (an emoji written as two escapes) is one character: accepted.
    const ok = demoCopy();
    const okRows = join(ok, 'peritem', 'governance.jsonl');
    const okLines = readFileSync(okRows, 'utf8').split('\n');
    const item = (JSON.parse(okLines[0]!) as { item: string }).item;
    writeFileSync(okRows, okLines.map((l) => l.replaceAll(JSON.stringify(item), `"${item}\\ud83d\\ude00"`)).join('\n'));
    assert.ok(readCorpus(ok).tables.get('governance')?.items.includes(`${item}\u{1F600}`));
  });

  it("board.json's as_of must name a moment that exists: Date.parse would read 2025-02-30 as 2 March", () => {
    for (const asOf of ['2025-02-30T00:00:00Z', '2025-06-30T24:00:00Z']) {
      const dir = demoCopy();
      editJson(dir, 'board.json', (b) => {
        b.as_of = asOf;
      });
      const problems = problemsOf(dir);
      assert.deepEqual(
        problems.map((p) => [p.file, p.field, p.reason]),
        [['board.json', 'as_of', 'is not a real date']],
      );
    }
    const dir = demoCopy();
    editJson(dir, 'board.json', (b) => {
      b.as_of = '2024-02-29T23:59:59.123456789Z';
    });
    assert.equal(readCorpus(dir).meta.as_of, '2024-02-29T23:59:59.123456789Z');
  });

  it('the character U+FFFD itself, written as UTF-8, is text like any other', () => {
    const dir = demoCopy();
    const board = join(dir, 'board.json');
    const b = JSON.parse(readFileSync(board, 'utf8')) as { limitations: string[] };
    b.limitations = [...b.limitations, 'a replacement character \ufffd in a sentence'];
    writeFileSync(board, JSON.stringify(b, null, 2));
    assert.ok(readCorpus(dir).meta.limitations.some((l) => l.includes('\ufffd')));
  });
});
