/**
 * The SDK's `DefaultRequestHandler`, narrowed to what this agent offers (A2A v1.0 §3.1, §9;
 * protocols.md §2.4): `SendMessage` answered with one `Message`, and nothing else. The reply
 * is computed before the SDK runs the executor, so a malformed input reaches the caller as a
 * JSON-RPC error instead of becoming a failed task (the SDK turns an executor's throw into a
 * Task in state FAILED). Task methods answer -32004 UnsupportedOperation: no task is ever
 * created. Streaming and resubscription answer the SDK's own -32004 (the card says
 * `streaming: false`); push-notification configs its -32003; the extended card its -32004.
 */
import { randomUUID } from 'node:crypto';
import { Message, type AgentCard, type SendMessageRequest, type Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import type { ReplyContent } from './reply.js';

/** The message of every task method's -32004. */
export const NO_TASKS =
  'Task execution is not offered by this agent: every SendMessage is answered with a Message and no task is ever created.';

const REPLY_KEY = 'gspc.a2a.reply';

// The executor only publishes the reply prepared for this call (found in the call's context).
const executor: AgentExecutor = {
  async execute(rc: RequestContext, bus) {
    const reply = rc.context.state.get(REPLY_KEY) as ReplyContent | undefined;
    if (reply === undefined) throw new Error('no reply was prepared for this call');
    bus.publish(
      AgentEvent.message(
        Message.fromJSON({ ...reply, messageId: randomUUID(), contextId: rc.contextId, role: 'ROLE_AGENT' }),
      ),
    );
    bus.finished();
  },
  async cancelTask() {
    throw new UnsupportedOperationError(NO_TASKS);
  },
};

/** Computes the reply to one `SendMessage` (reply.ts). */
export type Replier = (request: SendMessageRequest) => Promise<ReplyContent>;

/** `DefaultRequestHandler` answering `SendMessage` with a prepared Message; tasks refused. */
export class BoardRequestHandler extends DefaultRequestHandler {
  constructor(
    card: AgentCard,
    private readonly replier: Replier,
  ) {
    // The task store is never written: only Messages are published.
    super(card, new InMemoryTaskStore(), executor);
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    // Without a messageId the SDK answers -32602 before anything is read.
    if (params.message?.messageId) context.state.set(REPLY_KEY, await this.replier(params));
    return super.sendMessage(params, context);
  }

  override async getTask(): Promise<never> {
    throw new UnsupportedOperationError(NO_TASKS);
  }

  override async listTasks(): Promise<never> {
    throw new UnsupportedOperationError(NO_TASKS);
  }

  override async cancelTask(): Promise<never> {
    throw new UnsupportedOperationError(NO_TASKS);
  }
}
