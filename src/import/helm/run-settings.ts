/**
 * How a HELM run spec says the run was made (issue 40 item 2; docs/import.md, "Run settings"),
 * from `run_spec.json`'s `adapter_spec`: the shots (`max_train_instances`), the limit
 * (`max_eval_instances`), the generation settings (`temperature`, `max_tokens`, `stop_sequences`,
 * `num_outputs`) and the template (the adapter method and every prefix, suffix, instruction and
 * substitution that builds the prompt, and how the training examples are drawn). HELM's run files
 * give no version and no date: both stay unknown.
 */
import type { RunSettings, SettingValue } from '../../core/board/run-settings.js';

const GENERATION_FIELDS = ['temperature', 'max_tokens', 'stop_sequences', 'num_outputs'] as const;

const TEMPLATE_FIELDS = [
  'method',
  'global_prefix',
  'global_suffix',
  'instructions',
  'input_prefix',
  'input_suffix',
  'reference_prefix',
  'reference_suffix',
  'chain_of_thought_prefix',
  'chain_of_thought_suffix',
  'output_prefix',
  'output_suffix',
  'instance_prefix',
  'substitutions',
  'sample_train',
  'multi_label',
] as const;

export function helmSettings(adapter: Record<string, unknown>): RunSettings {
  const s: RunSettings = { harness: 'helm' };
  if (typeof adapter.max_train_instances === 'number') s.shots = adapter.max_train_instances;
  if (typeof adapter.max_eval_instances === 'number') s.limit = adapter.max_eval_instances;
  const pick = (fields: readonly string[]) => {
    const out: Record<string, SettingValue> = {};
    for (const f of fields) if (adapter[f] !== undefined && adapter[f] !== null) out[f] = adapter[f] as SettingValue;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const generation = pick(GENERATION_FIELDS);
  if (generation) s.generation = generation;
  const template = pick(TEMPLATE_FIELDS);
  if (template) s.template = template;
  return s;
}
