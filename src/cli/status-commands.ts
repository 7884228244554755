/** `gspc heartbeat`, `gspc action-jobs ...` (stub: filled in by issue 5 work). */
import type { Command } from 'commander';

export function registerStatusCommands(_program: Command): void {}
