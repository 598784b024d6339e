// Main's side of the server process: start it over its parent port, keep the secrets it generates, notice when
// it dies, and stop it gracefully on quit. No electron import here, so the integration test drives this very
// class over a Node `child_process.fork` where Electron cannot run; main/server-process.ts forks the real
// utilityProcess. The messages are in app/server-child-protocol.ts.
import type { FromServerChild, ServerChildStart, ToServerChild } from '../app/server-child-protocol';

/** A forked server process: Electron's UtilityProcess as is, or a Node ChildProcess adapted (tests). */
export interface ServerChildHandle {
  postMessage(message: ToServerChild): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export interface ServerHostHooks {
  /** Keeps secrets the server generated on first start (main seals them); throws when it cannot. */
  keepSecrets(secrets: Record<string, string>): void;
  /** The process ended on its own after it was ready (a crash, or killed from outside). */
  onUnexpectedExit(code: number): void;
}

export interface StartedServer {
  port: number;
  /** The one-time first-run setup token, while no user exists. */
  setupToken: string | null;
}

export interface StopResult {
  /** The process closed the server and exited 0 within the timeout. */
  graceful: boolean;
  /** It did not exit within the timeout and was killed. */
  killed: boolean;
  code: number;
}

export class ServerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerStartError';
  }
}

function isChildMessage(value: unknown): value is FromServerChild {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

export class ServerHost {
  private exitCode: number | null = null;
  private readonly exited: Promise<number>;
  private ready = false;
  private stopping = false;
  private pendingStart: {
    resolve: (started: StartedServer) => void;
    reject: (error: Error) => void;
  } | null = null;

  constructor(
    private readonly child: ServerChildHandle,
    private readonly hooks: ServerHostHooks,
  ) {
    this.exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        this.exitCode = code;
        resolve(code);
        this.onExit(code);
      });
    });
    child.on('message', (message) => {
      if (isChildMessage(message)) this.onMessage(message);
    });
  }

  /** Starts the server; resolves once it listens, rejects with the process's reason when it cannot start. */
  start(options: ServerChildStart): Promise<StartedServer> {
    if (this.pendingStart || this.ready) return Promise.reject(new Error('The server process was started'));
    return new Promise((resolve, reject) => {
      this.pendingStart = { resolve, reject };
      this.child.postMessage({ type: 'start', options });
    });
  }

  /**
   * Asks for a graceful close and waits for the process to exit; after `timeoutMs` it is killed, so a stuck
   * socket cannot keep the app alive.
   */
  async stop(timeoutMs: number): Promise<StopResult> {
    if (this.exitCode !== null) return { graceful: this.exitCode === 0, killed: false, code: this.exitCode };
    this.stopping = true;
    try {
      this.child.postMessage({ type: 'stop' });
    } catch {
      // The process is exiting on its own (a failed start); its exit is awaited below all the same.
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([this.exited, timedOut]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return { graceful: outcome === 0, killed: false, code: outcome };
    this.child.kill();
    return { graceful: false, killed: true, code: await this.exited };
  }

  private onMessage(message: FromServerChild): void {
    switch (message.type) {
      case 'keep-secrets':
        this.keepSecrets(message.secrets);
        break;
      case 'ready':
        this.ready = true;
        this.settleStart({ port: message.port, setupToken: message.setupToken });
        break;
      case 'failed':
        this.settleStart(new ServerStartError(message.message));
        break;
    }
  }

  private keepSecrets(secrets: Record<string, string>): void {
    try {
      this.hooks.keepSecrets(secrets);
      this.child.postMessage({ type: 'secrets-kept' });
    } catch (error) {
      this.child.postMessage({
        type: 'secrets-not-kept',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private onExit(code: number): void {
    if (this.pendingStart) {
      this.settleStart(new ServerStartError(`The server process exited (code ${code}) before it was ready`));
    } else if (this.ready && !this.stopping) {
      this.hooks.onUnexpectedExit(code);
    }
  }

  private settleStart(outcome: StartedServer | Error): void {
    const pending = this.pendingStart;
    this.pendingStart = null;
    if (!pending) return;
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome);
  }
}
