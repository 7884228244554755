/**
 * docs/operators.md, run as written (issue 16): every line of its `sh tutorial` blocks, in order,
 * in an empty directory, with `gspc` on the PATH (a shim for this checkout's bin) and `CHECKOUT`
 * set as the page tells a reader to. `gspc serve` lines start a server (stopped when the file
 * ends) and the next line runs once it answers. The commands are read from the document, never
 * copied here, so the page and the test cannot drift apart.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start, waitFor } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

/** The command lines of every ```sh tutorial block, in document order. */
function tutorialCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh tutorial\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

describe('docs/operators.md', () => {
  it('every command of the tutorial runs as written, and the board it serves verifies', {
    timeout: 120_000,
  }, async () => {
    const commands = tutorialCommands(readFileSync(join(repoRoot, 'docs', 'operators.md'), 'utf8'));
    assert.ok(commands.length >= 6, `the tutorial has its commands (${commands.length})`);
    const work = tempDir();
    const bin = join(work, '.bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'gspc'),
      `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'bin', 'gspc.js')}" "$@"\n`,
    );
    chmodSync(join(bin, 'gspc'), 0o755);
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GSPC_'))),
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      CHECKOUT: repoRoot,
    } as Record<string, string>;

    const outputs: string[] = [];
    for (const line of commands) {
      const serve = /^gspc serve .*--port (\d+)/.exec(line);
      if (serve) {
        const port = Number(serve[1]);
        assert.ok(await portFree(port), `port ${port}, which the tutorial serves on, is in use on this machine`);
        const server = start('sh', ['-c', `cd "${work}" && exec ${line}`], env);
        await waitFor(`http://127.0.0.1:${port}/healthz`, 30_000, server.output);
        continue;
      }
      const r = spawnSync('sh', ['-c', line], { cwd: work, env, encoding: 'utf8' });
      assert.equal(r.status, 0, `\`${line}\` exited ${r.status}:\n${r.stdout}${r.stderr}`);
      outputs.push(r.stdout + r.stderr);
    }
    const all = outputs.join('\n');
    // What the page says the reader will see.
    assert.match(all, /harness reported acc 0\.6 over 20 = board 12\/20/);
    assert.match(all, /harness reported acc 0\.8 over 20 = board 16\/20/);
    assert.match(
      all,
      /\ncopa\s+MEASURED\s+hf-internal-testing\/tiny-random-gpt2\s+0\.800\s+\[0\.584, 0\.919\]\s+20\s+TIE p=0\.289/,
    );
    assert.match(all, /board\.json issuer, doi, measured_on\.date: still the scaffold gspc import wrote/);
    assert.match(outputs.at(-1)!, /^VALID: every check passes, 2 of 2 cards valid$/m);
  });
});
