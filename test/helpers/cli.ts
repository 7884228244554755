/**
 * `gspc` run in the test's own process: `main()` with the given arguments, an environment made
 * only of what the test passes (never the caller's), and its output captured. The same code as
 * the bin runs, without a process start per command (about a second each on the 2-core machine);
 * each CLI test file still runs the compiled bin once (`runCli` in ./process.ts), so the bin's own
 * wiring (exit status, streams) stays tested.
 */
import { main } from '../../src/cli/main.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export async function gspc(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    out: (t: string) => {
      stdout += t;
    },
    err: (t: string) => {
      stderr += t;
    },
    errIsTty: false,
  };
  try {
    const status = await main(['node', 'gspc', ...args], { ...env }, io);
    return { status, stdout, stderr };
  } catch (err) {
    // What bin/gspc.js does with an error no command handled.
    stderr += `${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`;
    return { status: 1, stdout, stderr };
  }
}
