/**
 * The job state machine of the action-job ledger (specification, "States and transitions":
 * "the states of a job: not shown"; decided in docs/decisions.md, AJ1-AJ2):
 *
 *   intent ─► REQUESTED ─┬─ state ─► REFUSED    (execution is disabled: FAIL_CLOSED)
 *                        └─ state ─► CANCELLED  (withdrawn before any outcome)
 *
 * A job is opened by exactly one intent receipt; it then takes at most one state receipt,
 * which is final. The store checks a new receipt with {@link transitionProblem} before
 * appending it, and the chain verifier checks every stored receipt the same way.
 */
import { FINAL_JOB_STATES, type ActionId, type ActionJobReceipt, type JobState } from './action-jobs-receipt.js';

/**
 * Why execution is refused, recorded as the reason of every REFUSED receipt. The service has
 * no executor: nothing is run, no provider is called, nothing leaves the service, nothing is
 * trained and the board is not written.
 */
export const EXECUTION_REFUSED_REASON =
  'execution is disabled (policy FAIL_CLOSED): no executor is configured, so no provider call, external egress, training or board write was made';

/** One job as its receipts show it. */
export interface ActionJobView {
  job_id: string;
  action_id: ActionId;
  /** The state of the job's latest receipt. */
  state: JobState;
  /** Whether the state is final (REFUSED, CANCELLED). */
  final: boolean;
  /** The recorded_at of the intent. */
  requested_at: string;
  /** The recorded_at of the latest receipt. */
  updated_at: string;
  /** The seqs of the job's receipts, oldest first. */
  receipts: number[];
}

/**
 * The reason `next` may not follow `prior` (the same job's earlier receipts, oldest first), or
 * null when it may: an intent only opens a new job; a state receipt only follows a REQUESTED
 * job of the same action.
 */
export function transitionProblem(prior: readonly ActionJobReceipt[], next: ActionJobReceipt): string | null {
  const last = prior[prior.length - 1];
  if (next.kind === 'intent') {
    return last === undefined ? null : `job ${next.job_id} already exists (seq ${last.seq}); an intent opens a new job`;
  }
  if (last === undefined) return `job ${next.job_id} has no intent receipt; a state receipt follows an intent`;
  if (last.action_id !== next.action_id) return `job ${next.job_id} is for ${last.action_id}, not ${next.action_id}`;
  if (FINAL_JOB_STATES.includes(last.state))
    return `job ${next.job_id} is already ${last.state} (seq ${last.seq}), which is final`;
  return null;
}

/** The jobs of a list of receipts (in chain order), in the order they were requested. */
export function jobsOf(receipts: readonly ActionJobReceipt[]): ActionJobView[] {
  const jobs = new Map<string, ActionJobView>();
  for (const r of receipts) {
    const job = jobs.get(r.job_id);
    if (job === undefined) {
      jobs.set(r.job_id, {
        job_id: r.job_id,
        action_id: r.action_id,
        state: r.state,
        final: FINAL_JOB_STATES.includes(r.state),
        requested_at: r.recorded_at,
        updated_at: r.recorded_at,
        receipts: [r.seq],
      });
    } else {
      job.state = r.state;
      job.final = FINAL_JOB_STATES.includes(r.state);
      job.updated_at = r.recorded_at;
      job.receipts.push(r.seq);
    }
  }
  return [...jobs.values()];
}
