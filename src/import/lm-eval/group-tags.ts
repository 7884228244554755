/**
 * The tags lm-eval records for a task's items (issue 41 item 1, decision IT6): a results file of a
 * group run (`lm_eval --tasks mmlu`) lists its tree in `group_subtasks`, each group's direct
 * subtasks (`{"mmlu": ["mmlu_stem", …], "mmlu_stem": ["mmlu_abstract_algebra", …],
 * "mmlu_abstract_algebra": []}`). The items of a subtask are tagged with the subtask's own name
 * and every group above it, nearest first: for MMLU, the subject, its category and `mmlu`. A task
 * under no group (a run of `copa` alone, or a results file without `group_subtasks`) gets no
 * tags: nothing is read from the task's name or its dataset.
 */

/** The task and the groups containing it, or undefined when `group_subtasks` puts it under none. */
export function groupTags(groupSubtasks: unknown, task: string): string[] | undefined {
  if (groupSubtasks === null || typeof groupSubtasks !== 'object' || Array.isArray(groupSubtasks)) return undefined;
  const parents = new Map<string, string[]>();
  for (const [group, subs] of Object.entries(groupSubtasks as Record<string, unknown>)) {
    if (!Array.isArray(subs)) continue;
    for (const sub of subs) {
      if (typeof sub !== 'string' || sub === group) continue;
      const list = parents.get(sub) ?? [];
      list.push(group);
      parents.set(sub, list);
    }
  }
  if (!parents.has(task)) return undefined;
  // Breadth first from the task: nearest groups first; `seen` stops a cycle in a hand-edited file.
  const out = [task];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++)
    for (const g of parents.get(out[i]!) ?? [])
      if (!seen.has(g)) {
        seen.add(g);
        out.push(g);
      }
  return out;
}

/**
 * The leaf tasks under the given groups in `group_subtasks`: the tasks that write samples (a
 * subgroup such as `mmlu_stem` writes none; its subjects do). The reader names the ones an import
 * lacks (decision MG3), so a group's tag that covers part of the group is said, not hidden.
 */
export function groupLeaves(groupSubtasks: unknown, groups: readonly string[]): string[] {
  if (groupSubtasks === null || typeof groupSubtasks !== 'object' || Array.isArray(groupSubtasks)) return [];
  const tree = groupSubtasks as Record<string, unknown>;
  const kids = (g: string): string[] => {
    const subs = tree[g];
    return Array.isArray(subs) ? subs.filter((s): s is string => typeof s === 'string' && s !== g) : [];
  };
  const leaves: string[] = [];
  const seen = new Set<string>();
  const walk = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    const sub = kids(t);
    if (sub.length === 0) leaves.push(t);
    for (const s of sub) walk(s);
  };
  for (const g of groups) for (const s of kids(g)) walk(s);
  return leaves;
}
