/**
 * `GET /feed.atom` as feed readers and validators read it (issue 39): RFC 4287's rules hold
 * (test/helpers/atom-rules.ts, on a strict XML parse), a second maintained feed parser
 * (feedsmith) reads it back, entries are dated when each release was signed (three releases of
 * one corpus date published over a day), and a corpus whose model id, issuer and correction texts
 * are full of markup gives a feed in which every one of them is text: literally in what a parser
 * returns, and never an element, in the XML or in the HTML of an entry's content.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAtomFeed } from 'feedsmith';
import { buildApp } from '../../src/app.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { writeAtom } from '../../src/serve/documents/atom.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { allElements, ATOM_NS, atomText, atomViolations, parseXml, textOf } from '../helpers/atom-rules.js';
import { gspc } from '../helpers/cli.js';
import { ADDED_CORRECTION, editedDemo } from '../helpers/edited-demo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ORIGIN = 'http://localhost:8772';
const EVIL = 'evil/<b>x&amp;</b><script>alert(1)</script>';
const EVIL_CORRECTION = 'C-2026-1121-01';
const EVIL_STATUS = 'CORRECTED <b>twice</b> & "quoted"';
const EVIL_TEXT = 'First line <script>alert(2)</script>\nsecond line & <i>more</i>';
const ISSUER_MARKUP = 'Lab <em>&lt;x&gt;</em> & co: ';
/** When each release was signed: three over one day, all of one corpus date (2026-11-01). */
const SIGNED = ['2026-11-21T00:00:00.000Z', '2026-11-21T08:00:00.000Z', '2026-11-21T16:00:00.000Z'];

/** The edited demo with demo/atlas-70b renamed to a model id full of markup, and two more edits. */
function evilCorpus(): string {
  const dir = editedDemo();
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
  for (const f of walk(dir).filter((f) => /\.jsonl?$/.test(f))) {
    const text = readFileSync(f, 'utf8');
    if (text.includes('demo/atlas-70b')) writeFileSync(f, text.replaceAll('demo/atlas-70b', EVIL));
  }
  const boardFile = join(dir, 'board.json');
  const board = JSON.parse(readFileSync(boardFile, 'utf8')) as { issuer: string };
  board.issuer = ISSUER_MARKUP + board.issuer;
  writeFileSync(boardFile, `${JSON.stringify(board, null, 2)}\n`);
  const entries = join(dir, 'corrections', 'entries');
  const entry = JSON.parse(readFileSync(join(entries, `${ADDED_CORRECTION}.json`), 'utf8'));
  Object.assign(entry, {
    id: EVIL_CORRECTION,
    date: '2026-11-21',
    published_at: '2026-11-21T09:00:00Z',
    status: EVIL_STATUS,
    what_was_wrong: EVIL_TEXT,
  });
  writeFileSync(join(entries, `${EVIL_CORRECTION}.json`), `${JSON.stringify(entry, null, 2)}\n`);
  return dir;
}

const data = tempDir();
const ids: string[] = [];

describe('/feed.atom for feed readers and validators', () => {
  let app: ReturnType<typeof buildApp>;
  let xml: string;
  before(async () => {
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    for (const corpus of [demoCorpus, editedDemo(), evilCorpus()]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', ORIGIN]);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
    ids.forEach((id, i) => {
      const at = new Date(SIGNED[i]!);
      utimesSync(join(data, 'releases', id, 'release.json'), at, at);
    });
    app = buildApp({
      state: new ServedState(
        loadRelease(join(data, 'releases', ids[2]!)),
        liveOf(signingContext(join(data, 'keys'), 'localhost:8772')),
      ),
      logLevel: 'silent',
      baseUrl: ORIGIN,
    });
    const r = await app.inject({ method: 'GET', url: '/feed.atom' });
    assert.equal(r.statusCode, 200);
    xml = r.body;
  });
  after(() => app.close());

  it("keeps RFC 4287's rules: one id/title/updated, an author, valid types, RFC 3339 dates, newest first", () => {
    assert.deepEqual(atomViolations(xml), []);
  });

  it("says what a correction changed whether the entry calls it what_changed or fix (review: the demo's C-2026-0310-01 lost its fix)", () => {
    const entry =
      /<entry>(?:(?!<\/entry>)[\s\S])*?urn:gspc:correction:C-2026-0310-01[\s\S]*?<\/entry>/.exec(xml)?.[0] ?? '';
    assert.notEqual(entry, '', 'the correction has an entry');
    assert.match(entry, /the page now states p below 0\.05, exact McNemar/);
  });

  it('names the service as the author, by its DID and public origin; entries inherit it', async () => {
    const did = ((await app.inject({ method: 'GET', url: '/.well-known/did.json' })).json() as { id: string }).id;
    assert.match(did, /^did:web:localhost%3A8772/);
    const feed = parseAtomFeed(xml);
    assert.deepEqual(feed.authors, [{ name: did, uri: `${ORIGIN}/` }]);
    assert.ok(feed.entries?.every((e) => e.authors === undefined));
  });

  it('dates each release when it was signed, each correction when it was published; the feed is as new as its newest entry', () => {
    const feed = parseAtomFeed(xml);
    const order = (feed.entries ?? []).map((e) => [e.id, e.updated]);
    assert.deepEqual(order.slice(0, 5), [
      [`urn:gspc:release:${ids[2]}`, SIGNED[2]],
      [`urn:gspc:correction:${EVIL_CORRECTION}`, '2026-11-21T09:00:00.000Z'],
      [`urn:gspc:release:${ids[1]}`, SIGNED[1]],
      [`urn:gspc:release:${ids[0]}`, SIGNED[0]],
      [`urn:gspc:correction:${ADDED_CORRECTION}`, '2026-11-20T08:00:00.000Z'],
    ]);
    assert.equal(order.length, 3 + 7, 'three releases, the five demo corrections and the two added');
    assert.equal(feed.updated, SIGNED[2]);
  });

  it('types titles as text and content as HTML with one element a line', () => {
    const root = parseXml(xml);
    const entries = root.children.filter((c) => c.name === 'entry');
    for (const el of [root, ...entries]) {
      const title = el.children.find((c) => c.name === 'title')!;
      assert.equal(title.attrs.type, 'text');
    }
    for (const e of entries) assert.equal(e.children.find((c) => c.name === 'content')?.attrs.type, 'html');
    const feed = parseAtomFeed(xml);
    const release = feed.entries!.find((e) => e.id === `urn:gspc:release:${ids[1]}`)!;
    const html = parseXml(`<div>${release.content!.value}</div>`);
    const items = allElements(html).filter((el) => el.name === 'li');
    assert.ok(items.some((li) => li.text === 'governance: leader "demo/atlas-70b" → "demo/borealis-34b"'));
    assert.ok(items.length >= 5, 'each change on its own line');
    const correction = feed.entries!.find((e) => e.id === `urn:gspc:correction:${EVIL_CORRECTION}`)!;
    const lines = allElements(parseXml(`<div>${correction.content!.value}</div>`));
    assert.equal(lines.filter((el) => el.name === 'br').length, 1, 'the line break of the text is a <br />');
  });

  it('keeps a model id, an issuer and correction texts full of markup as text: literal when parsed, never an element', () => {
    // The XML: only Atom elements, none of them from the corpus.
    const elements = allElements(parseXml(xml));
    assert.ok(elements.every((el) => el.ns === ATOM_NS));
    assert.ok(!elements.some((el) => ['b', 'i', 'em', 'script'].includes(el.name)));
    assert.ok(!/<(?:b|i|em|script)[\s>]/.test(xml), 'no tag of the corpus in the XML text');
    // A parser gives the strings back as they were written.
    const feed = parseAtomFeed(xml);
    assert.ok(feed.title?.value.startsWith(`Releases and corrections: ${ISSUER_MARKUP}SYNTHETIC DEMO`));
    const correction = feed.entries!.find((e) => e.id === `urn:gspc:correction:${EVIL_CORRECTION}`)!;
    assert.equal(correction.title?.value, `Correction ${EVIL_CORRECTION}: ${EVIL_STATUS}`);
    // The HTML of an entry: its text is the corpus's text, its elements only the feed's own.
    const served = feed.entries!.find((e) => e.id === `urn:gspc:release:${ids[2]}`)!;
    for (const entry of [served, correction]) {
      const html = allElements(parseXml(`<div>${entry.content!.value}</div>`));
      assert.ok(
        html.every((el) => ['div', 'p', 'ul', 'li', 'br'].includes(el.name)),
        entry.id,
      );
    }
    const servedLines = allElements(parseXml(`<div>${served.content!.value}</div>`)).filter((el) => el.name === 'li');
    assert.ok(
      servedLines.some((li) => textOf(li) === `continuity: leader "demo/atlas-70b" → "${EVIL}"`),
      'a leader line names the model id literally',
    );
    const [wrong] = allElements(parseXml(`<div>${correction.content!.value}</div>`)).filter((el) => el.name === 'p');
    assert.equal(textOf(wrong!), EVIL_TEXT);
  });

  it('replaces a character XML 1.0 cannot carry instead of writing a document no parser reads', () => {
    const out = writeAtom({
      id: 'https://board.example/feed.atom',
      title: 'a\u0001b\uD800c',
      author: { name: 'did:web:board.example', uri: 'https://board.example/' },
      links: [{ rel: 'self', href: 'https://board.example/feed.atom' }],
      generator: 'gspc-board',
      entries: [],
      emptyUpdated: new Date('2026-11-21T00:00:00Z'),
    });
    assert.equal(atomText(parseXml(out), 'title'), 'a\uFFFDb\uFFFDc');
    assert.deepEqual(atomViolations(out), []);
  });
});

describe('the RFC 4287 checker itself', () => {
  it('names the rules a feed like the one the `feed` library wrote breaks', () => {
    const bad = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:x</id><title>t</title><title>again</title><updated>2026-11-01</updated>
  <entry><id>urn:a</id><title type="html"><![CDATA[a]]></title><updated>2026-11-01T00:00:00Z</updated><content type="bogus type">x</content></entry>
  <entry><id>urn:b</id><title type="text">b<b xmlns="">x</b></title><updated>2026-11-02T00:00:00Z</updated></entry>
</feed>`;
    const problems = atomViolations(bad);
    for (const rule of [
      /atom:feed: 2 atom:title/,
      /atom:feed: atom:updated "2026-11-01" is not an RFC 3339/,
      /atom:feed: no link rel="self"/,
      /urn:a\): no atom:author/,
      /urn:a\) atom:content: type "bogus type"/,
      /urn:b\) atom:title: a text construct has child elements/,
      /urn:b\): no atom:content and no alternate link/,
      /atom:entry\[1\] is newer than the entry before it/,
    ])
      assert.ok(
        problems.some((p) => rule.test(p)),
        `${rule} in ${JSON.stringify(problems)}`,
      );
    assert.throws(() => atomViolations('<feed xmlns="http://www.w3.org/2005/Atom"><id>&nbsp;</id></feed>'));
  });
});
