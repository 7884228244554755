/**
 * What `gspc` writes to a terminal, made inert (issue 39). Much of what the commands print comes
 * from someone else: a view being verified (its DID, its reasons), harness logs being imported
 * (task and model names), a corpus's free text. A character a terminal obeys rather than shows can
 * make that output lie: an escape sequence can move the cursor up and overwrite a `FAIL` line
 * with `ok`, a carriage return can overprint a line, and a bidirectional control can make
 * `evil-model` display as another name. So every such character is written as its `\uXXXX`
 * escape: C0 controls but tab and line feed, DEL, the C1 controls (U+0080–U+009F, where 0x9B is
 * a one-byte CSI), and the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069). In JSON output the escape is the same string to any parser: inside a JSON
 * string `\u202e` and the raw character are one value, and the JSON text has no such character
 * outside strings.
 */
const INERT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalText(text: string): string {
  return text.replace(INERT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
