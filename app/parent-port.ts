import type { FromServerChild } from './server-child-protocol';

// The server process's line to the process that started it. On the desktop that is Electron's utilityProcess
// (`process.parentPort`, a global of the utility process: nothing is imported from electron); in tests, where
// Electron cannot run, the same entry is started with Node's `child_process.fork` (`process.send` and
// `process.on('message')`).

export interface ParentPort {
  /** Resolves once the message is handed to the channel, so the process may exit right after. */
  send(message: FromServerChild): Promise<void>;
  onMessage(handler: (message: unknown) => void): void;
  /**
   * The parent is gone (Node's IPC channel closed). Electron ends a utility process itself when the app exits,
   * so this never fires there.
   */
  onParentGone(handler: () => void): void;
}

/** The part of Electron's ParentPort used here (declared locally: this file must not depend on electron). */
interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export function connectToParent(): ParentPort {
  const electron = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (electron) {
    return {
      send: (message) => {
        electron.postMessage(message);
        // postMessage only queues; one turn of the loop lets it leave before an exit.
        return new Promise((resolve) => setImmediate(resolve));
      },
      onMessage: (handler) => electron.on('message', (event) => handler(event.data)),
      onParentGone: () => undefined,
    };
  }
  const send = process.send?.bind(process);
  if (send) {
    return {
      send: (message) =>
        new Promise((resolve) => {
          // A closed channel means the parent is gone; onParentGone handles that, so there is nothing to report.
          if (!process.connected) resolve();
          else send(message, undefined, {}, () => resolve());
        }),
      onMessage: (handler) => process.on('message', handler),
      onParentGone: (handler) => process.once('disconnect', handler),
    };
  }
  throw new Error(
    'app/server-child.ts runs as a child process: Electron utilityProcess.fork or Node child_process.fork',
  );
}
