/** `gspc corrections ...` (stub: filled in by issue 5 work). */
import type { Command } from 'commander';

export function registerCorrectionsCommands(_program: Command): void {}
