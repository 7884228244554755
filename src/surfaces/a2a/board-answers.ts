/**
 * Skills over the board and its cards: board-summary (`GET /api/gspc`), axis-lookup
 * (`GET /api/gspc?axis=`), card-lookup (`GET /cards/<id>.json`, its proof, `/cards/index.json`)
 * and card-verification (`POST /api/verify`). Each answer's data parts are the served
 * documents verbatim, so its figures are the HTTP board's.
 */
import {
  axisLine,
  list,
  malformed,
  read,
  str,
  type AnswerDeps,
  type AnswerPart,
  type SkillAnswer,
} from './answer-kit.js';
import type { RoutedMessage } from './skills.js';
import type { ModelsDocument } from '../../core/board/models-document.js';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { cutText, fitBoard, jsonBytes } from '../answer-budget.js';
import { answerRoom, axisPage, axisWords, cursorScope } from '../axis-answer.js';
import { pageBoard, pageWords } from '../board-pages.js';

/** At most this many cards are looked up or listed per message (the rest are named). */
export const MAX_CARDS_PER_ANSWER = 10;

/** What an axis answer's board selection may take (its per_model list is cut past it). */
const SELECTION_BYTES = 16 * 1024;

function livingStamp(board: Record<string, unknown>): string {
  const stamp = (board.measured_on as { living_stamp?: { verification_state?: unknown; reason?: unknown } } | undefined)
    ?.living_stamp;
  return `Board signature: ${str(stamp?.verification_state, 'UNKNOWN')}${typeof stamp?.reason === 'string' ? ` (${stamp.reason})` : ''}.`;
}

/** board-summary: `GET /api/gspc`; the text gives the counts and the quotable leaders. */
/** Quotable leaders named in the text (the rest are in the data part). */
const LEADERS_NAMED = 20;

export async function boardSummary(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const r = await read(deps, '/api/gspc');
  const t = (r.json.totals ?? {}) as Record<string, unknown>;
  const leaders = list(r.json.axes).filter((a) => a.quotable === true && typeof a.leader === 'string');
  const named = leaders.slice(0, LEADERS_NAMED);
  const text = [
    `GSPC board: ${str(t.lid)}.`,
    `${str(t.axes)} axes (${str(t.measured_axes)} measured, ${str(t.unmeasured_axes)} unmeasured, ${str(t.quotable_axes)} quotable), ${str(t.items)} items.`,
    str(t.separation_public_count, ''),
    leaders.length > 0
      ? `Quotable leaders: ${named.map(axisLine).join('; ')}${leaders.length > named.length ? `; and ${leaders.length - named.length} more (in the data part)` : ''}.`
      : 'No quotable leader.',
    livingStamp(r.json),
    `Exact figures: the data part is the board as ${deps.ctx.baseUrl}/api/gspc serves it.`,
  ]
    .filter((s) => s !== '')
    .join('\n');
  // A classification axis of hundreds of models makes per_model longer than an answer holds.
  const room = answerRoom(`${text}\n${'x'.repeat(800)}`);
  const fitted = fitBoard(r.json, room);
  const cut =
    Object.keys(fitted.cut).length > 0
      ? `\nTo stay within 64 kB, per-model lists are cut (${cutText(fitted.cut)}); each is whole at ${deps.ctx.baseUrl}/api/gspc?axis=<axis>, and page by page from axis-lookup.`
      : '';
  // A board of many axes does not fit even with its lists cut: its axes come page by page.
  if (msg.cursor !== undefined || jsonBytes(fitted.value) > room) {
    const paged = pageBoard(fitted.value, msg.cursor, room, cursorScope(deps.ctx.state.current().release.id, ''));
    if ('error' in paged)
      return { skill: 'board-summary', text: paged.error, data: [{ value: { error: paged.error }, source: r.source }] };
    const next = paged.page.next_cursor;
    const more = next === null ? ' (the last page)' : `; for the next page send metadata "cursor": "${next}"`;
    return {
      skill: 'board-summary',
      text: `${text}${cut}\nThe data part holds ${pageWords(paged.page)}${more}.`,
      data: [{ value: paged.value, source: r.source }],
    };
  }
  return { skill: 'board-summary', text: `${text}${cut}`, data: [{ value: fitted.value, source: r.source }] };
}

/** axis-lookup: `GET /api/gspc?axis=<slug>` for a served slug; otherwise the known slugs. */
export async function axisLookup(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const known = deps.ctx.state.current().knownAxes;
  if (msg.axis === undefined || !known.includes(msg.axis)) {
    const asked = msg.axis === undefined ? 'No axis was named' : `There is no axis '${msg.axis}'`;
    return {
      skill: 'axis-lookup',
      text: `${asked}. Known axes: ${known.join(', ')}. Name one in metadata "axis" or in the text.`,
      data: [{ value: { error: 'unknown axis', known }, source: 'GET /api/gspc' }],
    };
  }
  // The slug was checked against the served axes, so the query is one the board route answers.
  const r = await read(deps, `/api/gspc?axis=${encodeURIComponent(msg.axis)}`);
  if (r.status !== 200)
    return {
      skill: 'axis-lookup',
      text: `The board did not answer for axis ${msg.axis} (HTTP ${r.status}): ${str(r.json.error)}.`,
      data: [{ value: r.json, source: r.source }],
    };
  const row = list(r.json.axes)[0] ?? {};
  const notes = (Array.isArray(r.json.limitations) ? r.json.limitations : []).filter(
    (l): l is string => typeof l === 'string' && l.startsWith(`${msg.axis}:`),
  );
  // A model comparison: every model and pair too (is X separated from Y, and by how much), a page
  // at a time within 64 kB (issue 39).
  const models =
    row.kind === 'model-comparison' ? await read(deps, `/api/models?axis=${encodeURIComponent(msg.axis)}`) : undefined;
  const doc = models?.status === 200 ? (models.json as unknown as ModelsDocument) : undefined;
  const selection = fitBoard(r.json, SELECTION_BYTES);
  const lines = [
    `${axisLine(row)}.`,
    typeof row.task === 'string' ? `Task: ${row.task}; dataset ${str(row.dataset)}.` : '',
    ...notes,
    ...axisWords(row, doc),
    Object.keys(selection.cut).length > 0
      ? `To stay within 64 kB the selection's per-model list is cut (${cutText(selection.cut)}); it is whole at ${deps.ctx.baseUrl}/api/gspc?axis=${msg.axis}.`
      : '',
    livingStamp(r.json),
  ].filter((s) => s !== '');
  const exact = (next: string | null) =>
    `Exact figures: the data parts are the board selection as ${deps.ctx.baseUrl}/api/gspc?axis=${msg.axis} serves it${doc ? ` and ${next === null && msg.cursor === undefined ? 'every' : 'a page of the'} model${next === null && msg.cursor === undefined ? ' and pair' : 's and pairs'} as ${deps.ctx.baseUrl}/api/models?axis=${msg.axis} serves them${next === null ? '' : `; for the next page send metadata "cursor": "${next}"`}` : ''}.`;
  const text = lines.join('\n');
  const page = doc
    ? // The row is in the selection part: the page carries the document alone.
      axisPage(
        msg.axis,
        {},
        null,
        doc,
        msg.cursor,
        answerRoom(`${text}\n${exact('00000000.pairs:999999999')}`) - jsonBytes(selection.value),
        cursorScope(deps.ctx.state.current().release.id, msg.axis),
      )
    : undefined;
  if (page && 'error' in page) throw new RequestMalformedError(`axis-lookup: ${page.error}`);
  const next = page ? page.next : null;
  return {
    skill: 'axis-lookup',
    text: `${text}\n${exact(next)}`,
    data: [
      { value: selection.value, source: r.source },
      ...(page && models ? [{ value: modelsPart(page.value), source: models.source }] : []),
    ],
  };
}

/** The every-model part of an axis answer: the page of the document, with the page's cursors. */
function modelsPart(page: Record<string, unknown>): Record<string, unknown> {
  return { ...(page.models as Record<string, unknown>), page: page.page };
}

/** card-lookup: each named card and its inclusion proof, or the index entries of an axis. */
export async function cardLookup(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const ids = msg.ids.filter((id) => /^([0-9a-f]{16}|[0-9a-f]{64})$/.test(id));
  if (ids.length === 0) return cardsOfIndex(msg, deps);
  const lines: string[] = [];
  const data: AnswerPart[] = [];
  for (const id of ids.slice(0, MAX_CARDS_PER_ANSWER)) {
    const id16 = id.slice(0, 16);
    const card = await read(deps, `/cards/${id16}.json`);
    if (card.status !== 200 || (id.length === 64 && card.json.sha256 !== id)) {
      lines.push(`${id}: no card with this id in the served release.`);
      continue;
    }
    data.push({ value: card.json, source: card.source });
    const proof = await read(deps, `/cards/${id16}.proof.json`);
    if (proof.status === 200) data.push({ value: proof.json, source: proof.source });
    const signed =
      typeof card.json.sig_ed25519 === 'string'
        ? `signed by ${str(card.json.signer)}`
        : `unsigned${typeof card.json.unsigned_reason === 'string' ? ` (${card.json.unsigned_reason})` : ''}`;
    lines.push(
      `${id16}: ${str(card.json.public_framing, `${str(card.json.surface)} card for ${str(card.json.subject)}`)} (${signed}; ${proof.status === 200 ? 'inclusion proof under the signed root attached' : 'not under the current root: withdrawn or superseded'}).`,
    );
  }
  if (ids.length > MAX_CARDS_PER_ANSWER)
    lines.push(
      `Only the first ${MAX_CARDS_PER_ANSWER} ids were looked up; not looked up: ${ids.slice(MAX_CARDS_PER_ANSWER).join(', ')}.`,
    );
  lines.push('To check a card, send it to the card-verification skill (the same check as POST /api/verify).');
  return { skill: 'card-lookup', text: lines.join('\n'), data };
}

async function cardsOfIndex(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const index = await read(deps, '/cards/index.json');
  const cards = list(index.json.cards);
  if (msg.axis === undefined) {
    return {
      skill: 'card-lookup',
      text: `${cards.length} cards are published (index: ${deps.ctx.baseUrl}/cards/index.json). Name a card id (16 or 64 hex) or an axis to look cards up.`,
      data: [{ value: index.json, source: index.source }],
    };
  }
  const mine = cards.filter((c) => c.axis === msg.axis);
  const shown = mine
    .slice(0, MAX_CARDS_PER_ANSWER)
    .map((c) => `${str(c.url)}: ${str(c.subject)} (${str(c.surface)}${c.signed === true ? ', signed' : ', unsigned'})`);
  const more = mine.length > shown.length ? ` The first ${shown.length} are listed; the data part has all.` : '';
  return {
    skill: 'card-lookup',
    text:
      mine.length === 0
        ? `No published card names axis ${msg.axis}.`
        : `${mine.length} cards of axis ${msg.axis}:${more}\n${shown.join('\n')}`,
    data: [
      {
        value: { schema: index.json.schema, as_of: index.json.as_of, axis: msg.axis, cards: mine },
        source: `${index.source} (entries with axis ${msg.axis})`,
      },
    ],
  };
}

/** card-verification: `POST /api/verify` with the data part, or `{ids}` from the text. */
export async function cardVerification(msg: RoutedMessage, deps: AnswerDeps): Promise<SkillAnswer> {
  const body = msg.data !== undefined ? msg.data : msg.ids.length > 0 ? { ids: msg.ids } : undefined;
  if (body === undefined) {
    return {
      skill: 'card-verification',
      text: 'Nothing to verify: send a card-v1 JSON, {"cards": [...]} or {"ids": [...]} as a data part, or card ids (16 or 64 hex) in the text.',
      data: [],
    };
  }
  const r = await deps.verifyCards(body);
  if (r.status >= 500) throw new Error(`POST /api/verify answered HTTP ${r.status}`);
  const json = JSON.parse(r.body) as Record<string, unknown>;
  const source = 'POST /api/verify';
  if (r.status === 404)
    return {
      skill: 'card-verification',
      text: `${str(json.error)}: nothing was verified.`,
      data: [{ value: json, source }],
    };
  if (r.status !== 200) malformed('card-verification', r.status, json);
  const s = (json.summary ?? {}) as Record<string, unknown>;
  const root = json.root as Record<string, unknown> | null;
  const results = list(json.results);
  // Away from the DID's host (a replica), the keys are the host's: say whether they could be anchored.
  const anchor = json.key_anchor as Record<string, unknown> | undefined;
  const lines = [
    `Checked ${str(s.checked)} card(s): ${str(s.valid)} VALID, ${str(s.invalid)} INVALID${s.unverifiable === undefined ? '' : `, ${str(s.unverifiable)} UNVERIFIABLE_KEY`}.`,
    ...(anchor === undefined
      ? []
      : [`Keys at the DID's host (key_anchor): ${str(anchor.result)}: ${str(anchor.detail)}`]),
    root
      ? `Signed root ${str(root.merkle_root)} (${str(root.leaf_count)} leaves, as of ${str(root.as_of)}): root signature ${str(root.signature)}.`
      : 'No signed root is served.',
    ...results
      .slice(0, MAX_CARDS_PER_ANSWER * 2)
      .map(
        (x) =>
          `${str(x.sha256, '(no sha256)')}: ${str(x.result)}${Array.isArray(x.reasons) && x.reasons.length > 0 ? ` (${x.reasons.join('; ')})` : ''}`,
      ),
  ];
  if (results.length > MAX_CARDS_PER_ANSWER * 2) lines.push(`The data part has all ${results.length} results.`);
  return { skill: 'card-verification', text: lines.join('\n'), data: [{ value: json, source }] };
}
