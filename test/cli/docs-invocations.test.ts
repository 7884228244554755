/**
 * Issue 39, item 6: every command and flag the docs name exists, and every `--help` is true.
 * Each `gspc …` in README.md, docs/*.md and src/cli/README.md (code spans, and command lines of
 * fenced blocks with their `\` continuations) and in every command's own help texts (its
 * description, its arguments' and options' descriptions) is walked against the commander
 * definitions `main` parses with (`gspcProgram`), never against the --help output: each command
 * word must be a command (or subcommand) there, each `--flag` an option of the command it follows.
 * Placeholders (`<dir>`, `[--json]`, `…`) are read as the usage lines of the docs write them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { CliRun } from '../../src/cli/cli-io.js';
import { gspcProgram } from '../../src/cli/main.js';
import { readConfig } from '../../src/config.js';
import { repoRoot } from '../helpers/repo.js';

interface Invocation {
  where: string;
  text: string;
}

/** Code spans and fenced blocks that name `gspc` as something other than a command line. */
const NOT_INVOCATIONS: readonly { where: RegExp; text: string; why: string }[] = [
  { where: /^docs\/import\.md:/, text: 'gspc board', why: 'the EEE source_name value, not a command' },
];

const DOCS = [
  'README.md',
  'src/cli/README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

// ---------------------------------------------------------------------------------------------
// Finding the invocations

/** The words of a command line: `<…>` and `[…]` groups (nested) and quoted strings are one word each. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  let quote = '';
  const flush = () => {
    if (cur !== '') out.push(cur);
    cur = '';
  };
  for (const ch of line) {
    if (quote !== '') {
      cur += ch;
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") {
      cur += ch;
      quote = ch;
    } else if (ch === '<' || ch === '[') {
      // A lone `<` is a redirection; one that opens a placeholder is part of a word.
      cur += ch;
      depth++;
    } else if ((ch === '>' || ch === ']') && depth > 0) {
      cur += ch;
      depth--;
    } else if (/\s/.test(ch) && depth === 0) flush();
    else cur += ch;
  }
  flush();
  return out;
}

/** Shell words that end a command: operators, redirections, a comment. */
const ENDS = /^(?:\||\|\||&&|;|&|>|>>|2>&1|2>|<|\)|#.*)$/;
const GSPC = /^(?:gspc|[^\s=]*\/gspc(?:\.js)?|gspc\.js)$/;
/** What may stand before `gspc` on its command line: a prompt, variables, cron fields, a runner. */
const PREFIX = /^(?:\$|[A-Za-z_][A-Za-z0-9_]*=\S*|[0-9*/,-]+|npx|exec|nohup|time|env|node|\S*\/node)$/;

/**
 * The `gspc` command lines in one line of shell: each command of it (split at `;`, `&&`, `|`, …)
 * that starts with `gspc` (after a prompt, variable assignments, cron fields or `node`/`npx`).
 */
function commandLines(line: string): string[][] {
  const found: string[][] = [];
  let segment: string[] = [];
  const end = () => {
    const at = segment.findIndex((w) => GSPC.test(w));
    if (at >= 0 && segment.slice(0, at).every((w) => PREFIX.test(w))) found.push(segment.slice(at + 1));
    segment = [];
  };
  for (const w of words(line)) {
    if (ENDS.test(w) || w.startsWith('#')) {
      end();
      if (w.startsWith('#')) return found;
      continue;
    }
    // `;` or `)` glued to a word ends the command after it.
    const glued = /^(.*[^;)])([;)]+)$/.exec(w);
    if (glued && !w.startsWith('<') && !w.startsWith('[')) {
      segment.push(glued[1]!);
      end();
      continue;
    }
    segment.push(w);
  }
  end();
  return found;
}

/** Every `gspc …` of a markdown file: command lines of fenced blocks, and code spans that are one. */
function invocationsOf(markdown: string, file: string): Invocation[] {
  const out: Invocation[] = [];
  const lines = markdown.split('\n');
  const prose: string[] = [];
  let fence: string | undefined;
  let pending = '';
  let pendingAt = 0;
  lines.forEach((text, i) => {
    const mark = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (fence === undefined && mark !== undefined) {
      fence = mark;
      prose.push('');
      return;
    }
    if (fence !== undefined) {
      prose.push('');
      if (text.trim().startsWith(fence)) {
        fence = undefined;
        pending = '';
        return;
      }
      if (pending === '') pendingAt = i + 1;
      if (/\\\s*$/.test(text)) {
        pending += `${text.replace(/\\\s*$/, '')} `;
        return;
      }
      const line = pending + text;
      pending = '';
      for (const c of commandLines(line)) out.push({ where: `${file}:${pendingAt}`, text: ['gspc', ...c].join(' ') });
      return;
    }
    prose.push(text);
  });
  // Code spans, which may break across lines (never across a paragraph); `\|` is a table's `|`.
  const text = prose.join('\n');
  for (const m of text.matchAll(/(`+)([^`]+?)\1/g)) {
    if (/\n\s*\n/.test(m[2]!)) continue;
    const span = m[2]!.replace(/\s*\n\s*/g, ' ').replace(/\\\|/g, '|');
    const line = text.slice(0, m.index).split('\n').length;
    const ws = words(span);
    const at = ws.findIndex((w) => GSPC.test(w));
    if (at < 0 || !ws.slice(0, at).every((w) => w === '$' || w === 'npx' || /^[A-Z_][A-Z0-9_]*=/.test(w))) continue;
    for (const c of commandLines(ws.slice(at).join(' ')))
      if (c.length > 0) out.push({ where: `${file}:${line}`, text: ['gspc', ...c].join(' ') });
  }
  return out.filter((inv) => !NOT_INVOCATIONS.some((n) => n.text === inv.text && n.where.test(inv.where)));
}

/** `gspc …` in a help text (prose: it ends at punctuation that no command line holds). */
function invocationsInHelp(help: string, where: string): Invocation[] {
  const out: Invocation[] = [];
  for (const m of help.matchAll(/(?:^|[\s(`'"])gspc ((?:[^\s,;:()`'"]+ ?)+)/g)) {
    const ws = words(m[1]!.trim());
    if (ws.length > 0) out.push({ where, text: ['gspc', ...ws].join(' ') });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Checking one against the commander definitions

const isPlaceholder = (w: string) => /^[<[]|^(?:\.\.\.|…)$|^\$|^\{/.test(w);
const strip = (w: string) => w.replace(/(?:\.\.\.|…)+$/, '');

/** The flags a word names: `--flag`, `--flag=value`, `-x`, and every one inside a `[…]` group. */
function flagsIn(w: string): string[] {
  if (w.startsWith('[')) return [...w.matchAll(/(?:^|[\s[|])(--?[A-Za-z][\w-]*)/g)].map((m) => m[1]!);
  const m = /^(--?[A-Za-z][\w-]*)(?:=.*)?$/.exec(w);
  return m ? [m[1]!] : [];
}

function findOption(cmd: Command, flag: string) {
  return cmd.options.find((o) => o.long === flag || o.short === flag);
}

const UNIVERSAL = new Set(['--help', '-h']);

/** What is wrong with an invocation (undefined when every command word and flag exists). */
function problemOf(program: Command, inv: Invocation): string | undefined {
  const ws = words(inv.text).slice(1);
  let cmds: Command[] = [program];
  let args = 0;
  const path = ['gspc'];
  for (let i = 0; i < ws.length; i++) {
    const w = strip(ws[i]!);
    if (w === '' || w === '--') continue;
    const flags = flagsIn(w);
    if (flags.length > 0 || w.startsWith('-')) {
      for (const flag of flags) {
        if (UNIVERSAL.has(flag)) continue;
        const found = cmds.map((c) => findOption(c, flag)).find((o) => o !== undefined);
        if (found === undefined)
          return `${path.join(' ')} has no option ${flag} (it has ${cmds
            .flatMap((c) => c.options.map((o) => o.long ?? o.short))
            .join(', ')})`;
        // Its value is the next word, unless given with `=` or inside a `[…]` group.
        if (!w.startsWith('[') && !w.includes('=') && (found.required || found.optional)) i++;
      }
      continue;
    }
    const parents = cmds.filter((c) => c.commands.length > 0);
    if (parents.length === 0 || args > 0) {
      args++;
      continue;
    }
    if (isPlaceholder(w)) return undefined; // `gspc <command> …`: nothing more to check
    const next: Command[] = [];
    for (const name of w.split('|')) {
      const sub = parents.flatMap((c) => c.commands).find((c) => c.name() === name || c.aliases().includes(name));
      if (sub === undefined)
        return `${path.join(' ')} has no command ${name} (it has ${parents
          .flatMap((c) => c.commands.map((s) => s.name()))
          .join(', ')})`;
      next.push(sub);
    }
    cmds = next;
    path.push(w);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

/** The program `main` parses with, built without running anything (no output, no environment). */
function program(): Command {
  const io = { out: () => undefined, err: () => undefined, errIsTty: false };
  return gspcProgram(new CliRun(io), (o = {}) => readConfig({}, o), io);
}

/** Every command with its path, the program included. */
function commands(cmd: Command, path: string[] = ['gspc']): { cmd: Command; path: string }[] {
  return [{ cmd, path: path.join(' ') }, ...cmd.commands.flatMap((c) => commands(c, [...path, c.name()]))];
}

const problems = (invs: readonly Invocation[]) =>
  invs.flatMap((inv) => {
    const p = problemOf(program(), inv);
    return p === undefined ? [] : [`${inv.where}: \`${inv.text}\`: ${p}`];
  });

describe('every gspc invocation the docs and the help name exists', () => {
  const docs = DOCS.flatMap((f) => invocationsOf(readFileSync(join(repoRoot, f), 'utf8'), f));

  it('finds the invocations: code spans, fenced command lines with continuations, placeholders', () => {
    const found = invocationsOf(
      [
        'Run `gspc keys rotate <board\\|agent-card>` then `gspc` alone, and `npx gspc`.',
        '```sh',
        '$ GSPC_X=1 gspc verify <base-url | release-dir> \\',
        '    [--json] --trust-key [identity-root=]<key>   # a comment naming gspc ledger',
        'pkcs11-tool --label gspc --pin 1 && gspc serve --port 8080 | tee log; gspc pull x',
        '*/5 * * * * gspc monitor https://a --state /s --once >> /var/log/m.jsonl',
        'ExecStart=/usr/bin/node /srv/gspc/bin/gspc.js serve --host 127.0.0.1',
        '```',
      ].join('\n'),
      'x.md',
    ).map((i) => i.text);
    assert.deepEqual(found, [
      'gspc verify <base-url | release-dir> [--json] --trust-key [identity-root=]<key>',
      'gspc serve --port 8080',
      'gspc pull x',
      'gspc monitor https://a --state /s --once',
      'gspc serve --host 127.0.0.1',
      'gspc keys rotate <board|agent-card>',
    ]);
    assert.ok(docs.length > 300, `only ${docs.length} invocations found in the docs`);
  });

  it('refuses a command or a flag that does not exist, wherever it stands', () => {
    const p = program();
    const check = (text: string) => problemOf(p, { where: 'x', text });
    assert.match(check('gspc ledger')!, /^gspc has no command ledger/);
    assert.match(check('gspc payments lst')!, /^gspc payments has no command lst/);
    assert.match(check('gspc invoice list|void <ref>')!, /has no command void/);
    assert.match(check('gspc verify <url> --jsn')!, /^gspc verify has no option --jsn/);
    assert.match(check('gspc payments list [--state UNKNOWN] [--all]')!, /has no option --all/);
    assert.match(check('gspc keys revoke <kid> --root <file>')!, /^gspc keys revoke has no option --root/);
    for (const ok of [
      'gspc payments list [--state UNKNOWN] [--json]',
      'gspc witness --kind transparency-log --submit https://w/ --witness-key k',
      'gspc verify <base-url | release-dir> [--json] [--trust-key [identity-root=]<key>]…',
      'gspc <command> --help',
      'gspc invoice list|settle <ref>',
      'gspc --version',
      'gspc keys',
    ])
      assert.equal(check(ok), undefined, ok);
  });

  it('README.md, docs/*.md and src/cli/README.md name only commands and flags that exist', () => {
    assert.deepEqual(problems(docs), []);
  });

  it("every command's --help names only commands and flags that exist", () => {
    const inHelp = commands(program()).flatMap(({ cmd, path }) => [
      ...invocationsInHelp(cmd.description(), `${path} (description)`),
      ...cmd.registeredArguments.flatMap((a) => invocationsInHelp(a.description, `${path} <${a.name()}>`)),
      ...cmd.options.flatMap((o) => invocationsInHelp(o.description, `${path} ${o.flags}`)),
    ]);
    assert.ok(
      inHelp.some((i) => i.where === 'gspc keygen --force' && i.text === 'gspc keys rotate'),
      `the help of keygen --force names gspc keys rotate; found ${JSON.stringify(inHelp)}`,
    );
    assert.deepEqual(problems(inHelp), []);
  });
});
