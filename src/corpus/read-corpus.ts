/**
 * Reads an operator's corpus directory into typed, validated values. All or nothing: any
 * problem anywhere rejects the whole corpus with every problem found (file:line, field,
 * reason), so nothing is ever half-loaded. Layout and fields: docs/formats.md.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemTable } from '../core/board/item-table.js';
import type { AxisDefinition, BoardMeta, LaneEntry, Obligation } from '../core/board/model.js';
import type { EvidenceFile } from '../core/board/facts-row.js';
import { GspcError, type CorpusProblem } from '../core/errors.js';
import { parseJsonFile } from './json-file.js';
import { readPerItemRows } from './peritem-rows.js';
import type { RowsRecord } from './rows-record.js';
import { axisFileSchema, boardFileSchema, laneFileSchema, obligationsFileSchema } from './schemas.js';
import { checkAxisRules } from './axis-rules.js';
import { encodingProblem } from './text-encoding.js';
import { readStatus, type CorpusStatus } from './status/index.js';
import type { ModelCard } from '../core/board/model-card.js';
import { MODEL_CARDS_PATH, measuredModels, readModelCards } from './model-cards.js';
import type { RunEntry } from '../core/board/run-settings.js';
import { attachRunSettings, readRunSettings, RUNS_PATH } from './run-settings.js';
import type { ModelPrice } from '../core/board/price-list.js';
import { PRICES_PATH, readPrices } from './prices.js';

/** A file of the corpus, by its path relative to the corpus root ('/' separated). */
export interface CorpusFile {
  path: string;
  bytes: Buffer;
  sha256: string;
}

export interface Corpus {
  meta: BoardMeta;
  definitions: AxisDefinition[];
  tables: Map<string, ItemTable>;
  evidence: Map<string, EvidenceFile>;
  lane: LaneEntry[];
  /** Obligations the evidence bundle serves (`obligations.json`; none when absent). */
  obligations: Obligation[];
  /** Model cards (`models.json`; none when absent): read by no derivation of the board. */
  modelCards: ModelCard[];
  /**
   * How each model was run on each axis (`runs.json`; none when absent), also attached to the
   * model's column of the axis: the board and `/api/models` refuse to pair models run unalike.
   */
  runSettings: RunEntry[];
  /** The operator's dated price list (`prices.json`; none when absent): read by /api/cost only, never by the board. */
  prices: ModelPrice[];
  /** The optional status files (regulation feed, corrections ledger, census, ...): §7 of formats.md. */
  status: CorpusStatus;
  /** Every file the corpus consists of, sorted by path: what a release copies and publishes. */
  files: CorpusFile[];
}

export const sha256Hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** How many per-item rows the corpus holds, over every axis. */
export const perItemRows = (corpus: Corpus): number =>
  [...corpus.tables.values()].reduce((sum, table) => sum + table.rowCount, 0);

export function readCorpus(root: string): Corpus {
  if (!existsSync(join(root, 'board.json'))) {
    throw new GspcError('corpus_invalid', `no board.json in ${root}: not a corpus directory`, {
      problems: [{ file: 'board.json', field: '', reason: 'missing' }],
    });
  }
  // Every JSON and JSONL file is UTF-8 without a BOM, checked before anything is parsed (a BOM or
  // a stray Latin-1 byte would otherwise surface as an unclear JSON error, or not at all).
  const text = new Map(textFiles(root).map((path) => [path, readFileSync(join(root, path))]));
  const encoding = [...text].flatMap(([path, bytes]) => encodingProblem(path, bytes) ?? []);
  if (encoding.length > 0) throw invalid(encoding);

  const problems: CorpusProblem[] = [];
  const files: CorpusFile[] = [];
  const load = (path: string): CorpusFile => {
    const bytes = text.get(path) ?? readFileSync(join(root, path));
    const f = { path, bytes, sha256: sha256Hex(bytes) };
    files.push(f);
    return f;
  };
  const utf8 = (f: CorpusFile) => f.bytes.toString('utf8');

  const board = parseJsonFile('board.json', utf8(load('board.json')), boardFileSchema);
  if (!board.ok) throw invalid(board.problems);
  const b = board.value;
  const meta: BoardMeta = {
    issuer: b.issuer,
    doi: b.doi,
    as_of: b.as_of,
    measured_on: b.measured_on,
    own_models: b.own_models,
    limitations: b.limitations,
  };

  const definitions: AxisDefinition[] = [];
  const tables = new Map<string, ItemTable>();
  // What each axis's rows say about their runs, per model: runs.json is checked against it (RS10).
  const rowsRecords = new Map<string, Map<string, RowsRecord>>();
  const evidence = new Map<string, EvidenceFile>();
  const listed = new Set(b.axes);
  for (const stray of listDir(root, 'axes')) {
    if (!stray.endsWith('.json') || !listed.has(stray.slice(0, -5)))
      problems.push({ file: `axes/${stray}`, field: '', reason: 'not listed in board.json axes' });
  }
  for (const stray of listDir(root, 'peritem')) {
    if (!stray.endsWith('.jsonl') || !listed.has(stray.slice(0, -6)))
      problems.push({ file: `peritem/${stray}`, field: '', reason: 'no listed axis of that name' });
  }

  for (const slug of b.axes) {
    const path = `axes/${slug}.json`;
    if (!existsSync(join(root, path))) {
      problems.push({ file: path, field: '', reason: 'missing (listed in board.json axes)' });
      continue;
    }
    const parsed = parseJsonFile(path, utf8(load(path)), axisFileSchema);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const def = parsed.value as AxisDefinition;
    if (def.axis !== slug) {
      problems.push({ file: path, field: 'axis', reason: `is '${def.axis}' but the file is named for '${slug}'` });
      continue;
    }
    definitions.push(def);

    const rowsPath = `peritem/${slug}.jsonl`;
    const hasRows = existsSync(join(root, rowsPath));
    if (def.kind === 'model-comparison' && hasRows) {
      const { table, problems: rowProblems, recorded } = readPerItemRows(rowsPath, load(rowsPath).bytes, def);
      problems.push(...rowProblems);
      if (rowProblems.length === 0) {
        tables.set(slug, table);
        rowsRecords.set(slug, recorded);
      }
    } else if (hasRows) {
      problems.push({
        file: rowsPath,
        field: '',
        reason: 'deterministic-facts axes have no per-item rows (facts live in the axis file)',
      });
    }
    if (def.kind === 'deterministic-facts' && def.evidence !== undefined) {
      const evPath = `evidence/${slug}/${def.evidence}`;
      if (!existsSync(join(root, evPath)))
        problems.push({ file: path, field: 'evidence', reason: `${evPath} does not exist` });
      else {
        const f = load(evPath);
        let json: unknown;
        if (evPath.endsWith('.json')) {
          try {
            json = JSON.parse(utf8(f));
          } catch (e) {
            problems.push({ file: evPath, field: '', reason: `invalid JSON (${(e as Error).message})` });
          }
        }
        evidence.set(slug, { path: `/${evPath}`, sha256: f.sha256, json });
      }
    }
    problems.push(...checkAxisRules(path, def, hasRows, tables.get(slug)));
  }

  let lane: LaneEntry[] = [];
  if (existsSync(join(root, 'lane.json'))) {
    const parsed = parseJsonFile('lane.json', utf8(load('lane.json')), laneFileSchema);
    if (parsed.ok) lane = parsed.value as LaneEntry[];
    else problems.push(...parsed.problems);
  }
  let obligations: Obligation[] = [];
  if (existsSync(join(root, 'obligations.json'))) {
    const parsed = parseJsonFile('obligations.json', utf8(load('obligations.json')), obligationsFileSchema);
    if (parsed.ok) {
      obligations = parsed.value as Obligation[];
      problems.push(...obligationProblems(obligations, new Set(definitions.map((d) => d.axis))));
    } else problems.push(...parsed.problems);
  }
  // Which models are measured is known only when the axes read cleanly (cards and prices name them).
  const measured = problems.length > 0 ? null : new Set([...measuredModels(definitions, tables).values()].flat());
  let modelCards: ModelCard[] = [];
  if (existsSync(join(root, MODEL_CARDS_PATH))) {
    const read = readModelCards(utf8(load(MODEL_CARDS_PATH)), measured);
    modelCards = read.cards;
    problems.push(...read.problems);
  }
  let prices: ModelPrice[] = [];
  if (existsSync(join(root, PRICES_PATH))) {
    const read = readPrices(utf8(load(PRICES_PATH)), measured);
    prices = read.prices;
    problems.push(...read.problems);
  }
  let runSettings: RunEntry[] = [];
  if (existsSync(join(root, RUNS_PATH))) {
    // Which (model, axis) has rows is known only when the axes read cleanly.
    const read = readRunSettings(
      utf8(load(RUNS_PATH)),
      problems.length > 0 ? null : { tables, recorded: rowsRecords, asOf: b.as_of },
    );
    runSettings = read.runs;
    problems.push(...read.problems);
  }
  const statusRead = readStatus({
    exists: (path) => existsSync(join(root, path)),
    load,
    list: (dir) => listDir(root, dir),
    axes: listed,
  });
  problems.push(...statusRead.problems);
  if (problems.length > 0) throw invalid(problems);
  attachRunSettings(runSettings, tables);
  files.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  return {
    meta,
    definitions,
    tables,
    evidence,
    lane,
    obligations,
    modelCards,
    runSettings,
    prices,
    status: statusRead.status,
    files,
  };
}

/** Where a corpus keeps its files (docs/formats.md); anything else in the directory is not read. */
const CORPUS_PLACES = new Set([
  'board.json',
  'lane.json',
  'obligations.json',
  'models.json',
  'prices.json',
  'runs.json',
  'axes',
  'peritem',
  'evidence',
  'status',
  'corrections',
]);

/** Every `.json` and `.jsonl` file of the corpus (hidden files apart), as paths relative to it. */
function textFiles(root: string, dir = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (e.name.startsWith('.') || (dir === '' && !CORPUS_PLACES.has(e.name))) continue;
    const path = dir === '' ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...textFiles(root, path));
    else if (e.isFile() && /\.jsonl?$/.test(e.name)) out.push(path);
  }
  return out;
}

function listDir(root: string, dir: string): string[] {
  const p = join(root, dir);
  if (!existsSync(p) || !statSync(p).isDirectory()) return [];
  return readdirSync(p).sort();
}

function invalid(problems: CorpusProblem[]): GspcError {
  return new GspcError(
    'corpus_invalid',
    `the corpus has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was loaded`,
    { problems },
  );
}

/** Ids are unique, axes are the corpus's, and `article-50` is control EU-AI-ACT-50 (specification). */
function obligationProblems(obligations: readonly Obligation[], axes: ReadonlySet<string>): CorpusProblem[] {
  const out: CorpusProblem[] = [];
  const seen = new Set<string>();
  obligations.forEach((o, i) => {
    if (seen.has(o.id))
      out.push({ file: 'obligations.json', field: `[${i}].id`, reason: `duplicate obligation id '${o.id}'` });
    seen.add(o.id);
    if (o.id === 'article-50' && o.control_id !== 'EU-AI-ACT-50')
      out.push({ file: 'obligations.json', field: `[${i}].control_id`, reason: 'article-50 is control EU-AI-ACT-50' });
    o.axes.forEach((a, j) => {
      if (!axes.has(a))
        out.push({
          file: 'obligations.json',
          field: `[${i}].axes[${j}]`,
          reason: `'${a}' is not an axis of board.json`,
        });
    });
  });
  return out;
}
