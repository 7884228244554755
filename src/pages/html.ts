/**
 * HTML with every interpolated value escaped unless it is already HTML (`SafeHtml`). Twenty lines
 * instead of a template engine: the pages are a handful of server-rendered documents, and one
 * escaping rule applied everywhere is easier to check than an engine's configuration.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[];

function render(v: Part): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\``: strings are escaped, SafeHtml and arrays of it are inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** JSON for a `<script type="application/json">` island: `<` escaped so it can never close the tag. */
export function jsonIsland(id: string, value: unknown): SafeHtml {
  return new SafeHtml(
    `<script type="application/json" id="${escapeHtml(id)}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`,
  );
}
