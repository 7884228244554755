/**
 * A corpus's JSON and JSONL files are UTF-8 without a byte order mark (RFC 8259 §8.1: JSON
 * exchanged between systems is UTF-8, and a parser may ignore, or refuse, a BOM). Before these
 * checks, a BOM surfaced as JSON.parse's "Unexpected token" with no hint of the cause, and bytes
 * that are not UTF-8 were silently read as U+FFFD, so a label could change without a word
 * (issue 16). Each file is checked once, before anything is parsed, and the first bad place is
 * named by line.
 */
import { isUtf8 } from 'node:buffer';
import type { CorpusProblem } from '../core/errors.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const REPLACEMENT = '\uFFFD';

/** What is wrong with the encoding of a JSON or JSONL file, or undefined when it is plain UTF-8. */
export function encodingProblem(file: string, bytes: Buffer): CorpusProblem | undefined {
  if (bytes.subarray(0, 3).equals(BOM))
    return {
      file,
      line: 1,
      field: '',
      reason: 'starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without a BOM',
    };
  if (isUtf8(bytes)) return undefined;
  // Found by decoding: the first U+FFFD that is not the character itself (EF BF BD) in the bytes.
  const text = bytes.toString('utf8');
  for (let i = text.indexOf(REPLACEMENT); i !== -1; i = text.indexOf(REPLACEMENT, i + 1)) {
    const before = text.slice(0, i);
    const offset = Buffer.byteLength(before, 'utf8');
    if (bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd) continue;
    const line = before.split('\n').length;
    const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0');
    return {
      file,
      line,
      field: '',
      reason: `is not UTF-8: byte 0x${byte} at byte ${offset} (column ${i - before.lastIndexOf('\n')}) starts no valid character; save the file as UTF-8`,
    };
  }
  return { file, field: '', reason: 'is not UTF-8; save the file as UTF-8' };
}
