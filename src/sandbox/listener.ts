import type { Server } from 'node:http';

/**
 * Owns the listening socket: starts it, closes it for a while to inject connection refusals,
 * and shuts it down for good. After `shutdown` nothing reopens it.
 */
export class ListenerControl {
  private reopenTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private address: { host: string; port: number } | undefined;

  constructor(private readonly server: Server) {}

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        const reason =
          error.code === 'EADDRINUSE' ? `port ${port} on ${host} is already in use` : error.message;
        reject(Object.assign(new Error(`cannot start the sandbox: ${reason}`), { code: error.code }));
      };
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        const bound = this.server.address();
        const actual = typeof bound === 'object' && bound ? bound.port : port;
        this.address = { host, port: actual };
        resolve(actual);
      });
    });
  }

  /** New connections get ECONNREFUSED for `ms`; open connections are not touched. */
  refuseFor(ms: number): void {
    if (this.stopped || this.reopenTimer || !this.address) return;
    const { host, port } = this.address;
    this.server.close();
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      if (!this.stopped) this.server.listen(port, host);
    }, ms);
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    if (this.reopenTimer) {
      clearTimeout(this.reopenTimer);
      this.reopenTimer = undefined;
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
