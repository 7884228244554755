#!/usr/bin/env node
// Entry point of the `gspc` command. The TypeScript sources are compiled to dist/ by
// `npm install` (the `prepare` script); run `npm run build` after changing src/.
import { main } from '../dist/cli/main.js';
import { terminalText } from '../dist/cli/terminal-text.js';

// A reader that stops early (`gspc import … | head`) closes the pipe. The command still finishes
// what it does (an import or a publish is not cut short half-way), its remaining output is
// dropped, and no stack trace is printed; the exit status is the command's.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });

main(process.argv).then(
  (status) => {
    process.exitCode = status;
  },
  (err) => {
    // A bug's stack may quote what a view or a harness log sent: written inert like all output.
    process.stderr.write(`${terminalText(String(err?.stack ?? err))}\n`);
    process.exit(1);
  },
);
