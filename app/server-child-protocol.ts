// The messages between the desktop's main process and its server process (app/server-child.ts). Types only:
// main imports this file as types and never loads server code; the child validates what it receives.
//
//   main                                   child
//   start {options}                  ->
//                                    <-    keep-secrets {secrets}     only when the server generated secrets
//   secrets-kept | secrets-not-kept  ->                               (first start); nothing is written before
//                                    <-    ready {port, setupToken}   or failed {message}, then exit 1
//   stop                             ->                               graceful close, then exit 0
//
// A closed channel (the parent is gone) stops the child the same way as `stop`.

/** What main hands the server process to start it. */
export interface ServerChildStart {
  dataDir: string;
  host: string;
  port: number;
  /** When the port is busy, try the next ones (the desktop wants this). */
  portFallback: boolean;
  /** The built console to serve; null serves the API only. */
  staticDir: string | null;
  /** The Electron-ABI better-sqlite3 addon; omitted under plain Node (tests). */
  nativeBinding?: string | undefined;
  /**
   * The secrets stored for this data directory, unsealed by main (safeStorage lives in main only); null when
   * none are stored yet.
   */
  secrets: Record<string, string> | null;
}

export type ToServerChild =
  | { type: 'start'; options: ServerChildStart }
  /** Answer to keep-secrets: main has sealed them, the server may use them. */
  | { type: 'secrets-kept' }
  /** Answer to keep-secrets: sealing failed; the child gives up rather than use keys that would be lost. */
  | { type: 'secrets-not-kept'; message: string }
  | { type: 'stop' };

export type FromServerChild =
  /** The server generated secrets on first start; main seals them before anything is encrypted with them. */
  | { type: 'keep-secrets'; secrets: Record<string, string> }
  | { type: 'ready'; port: number; setupToken: string | null }
  | { type: 'failed'; message: string };
