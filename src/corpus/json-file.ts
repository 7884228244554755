/**
 * Strict JSON parsing with positions: a syntax error or a schema violation is reported at its
 * line in the operator's file (jsonc-parser gives node offsets; comments and trailing commas
 * are refused because the files are plain JSON).
 */
import { findNodeAtLocation, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import type { CorpusProblem } from '../core/errors.js';

export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: CorpusProblem[] };

/** Parses `text` as JSON and validates it; problems carry the file, line and field. */
export function parseJsonFile<S extends z.ZodType>(file: string, text: string, schema: S): Parsed<z.output<S>> {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0) {
    return {
      ok: false,
      problems: errors.slice(0, 5).map((e) => ({
        file,
        line: lineAt(text, e.offset),
        field: '',
        reason: `invalid JSON (${printParseErrorCode(e.error)})`,
      })),
    };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const tree = parseTree(text);
  return {
    ok: false,
    problems: result.error.issues.slice(0, 20).map((issue) => {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      // Point at the deepest node that exists (a missing key is reported at its parent).
      let node;
      for (let depth = path.length; depth >= 0 && !node; depth--)
        node = tree ? findNodeAtLocation(tree, path.slice(0, depth)) : undefined;
      const p: CorpusProblem = { file, field: path.join('.'), reason: issue.message };
      if (node) p.line = lineAt(text, node.offset);
      return p;
    }),
  };
}
