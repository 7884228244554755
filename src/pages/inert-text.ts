/**
 * Operator text shown as text and nothing else (the item explorer, issue 41 item 4): escaped like
 * every value (html.ts), and each control, bidirectional or invisible character (the corpus's
 * one list, src/corpus/display-text.ts) shown as a visible `\uXXXX` mark instead of being
 * applied (decision XP4). A response or a label holding U+202E would otherwise reverse what
 * follows it, and a zero-width space make two labels look alike; the board's command line writes
 * the same characters as `\uXXXX` (src/cli/terminal-text.ts). A response keeps its tabs and line
 * breaks (it is shown in a `pre-wrap` box); a one-line value (an item id, a label) shows them too.
 */
import { HIDDEN_CHARS } from '../corpus/display-text.js';
import { escapeHtml, SafeHtml } from './html.js';

const HIDDEN = new RegExp(`[${HIDDEN_CHARS}]`, 'g');
/** In a response: tab, line feed and carriage return are its layout, not hidden. */
const LAYOUT = new Set(['\t', '\n', '\r']);

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');

function marked(s: string, keepLayout: boolean): SafeHtml {
  return new SafeHtml(
    escapeHtml(s).replace(HIDDEN, (c) =>
      keepLayout && LAYOUT.has(c)
        ? c
        : `<span class="xp-hidden" title="U+${hex(c).toUpperCase()}: shown, not applied">\\u${hex(c)}</span>`,
    ),
  );
}

/** A one-line value (item id, gold, label): every hidden character marked. */
export const inertWord = (s: string): SafeHtml => marked(s, false);

/** A response: every hidden character marked except its tabs and line breaks. */
export const inertText = (s: string): SafeHtml => marked(s, true);

/** The text a reader sees for `s` (for tests and `aria-label`s): each hidden character as `\uXXXX`. */
export function shownText(s: string, keepLayout = false): string {
  return s.replace(HIDDEN, (c) => (keepLayout && LAYOUT.has(c) ? c : `\\u${hex(c)}`));
}
