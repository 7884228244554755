/**
 * Close drains (decision O2): the server stops accepting, requests in flight complete (a paid one
 * may wait on the facilitator), streams (AG-UI, MCP) end in their own preClose hooks. What is
 * left after the drain timeout is cut: an aborted fetch can leave a connection that never sends a
 * request, and the server would otherwise wait for its headers timeout (about a minute).
 */
import type { FastifyInstance } from 'fastify';

export function installDrain(app: FastifyInstance, timeoutMs: number, onClosing: () => void): void {
  app.addHook('preClose', (done) => {
    onClosing();
    // A keep-alive connection whose request completes while draining becomes idle only then:
    // close such connections as they go idle, not once at the start, or close would wait for
    // the client to hang up (found by the SIGTERM test: 30 s instead of 1.5).
    const idle = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    app.server.once('close', () => clearInterval(idle));
    setTimeout(() => app.server.closeAllConnections(), timeoutMs).unref();
    done();
  });
}
