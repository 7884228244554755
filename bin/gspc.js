#!/usr/bin/env node
// Entry point of the `gspc` command. The TypeScript sources are compiled to dist/ by
// `npm install` (the `prepare` script); run `npm run build` after changing src/.
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (status) => {
    process.exitCode = status;
  },
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
