// The contract between the preload bridge and the renderer. The renderer's tsconfig includes this file to type
// `window.gatehouse`, so it must stay free of node and electron imports: types only.

/** The values Node's `process.platform` can take, without depending on @types/node. */
export type GatehousePlatform =
  | 'aix'
  | 'android'
  | 'cygwin'
  | 'darwin'
  | 'freebsd'
  | 'haiku'
  | 'linux'
  | 'netbsd'
  | 'openbsd'
  | 'sunos'
  | 'win32';

/**
 * What the desktop shell tells the console about itself. Deliberately tiny and read-only: the console talks to
 * the embedded server over HTTP and WebSocket like any browser, so the bridge carries facts, never capabilities
 * (no generic invoke, no IPC channel names).
 */
export interface GatehouseBridge {
  /** The desktop app's version (package.json `version`). */
  readonly appVersion: string;
  /** The operating system the desktop app runs on. */
  readonly platform: GatehousePlatform;
}

declare global {
  interface Window {
    /** Present only inside the Gatehouse desktop app; undefined in a plain browser (headless `serve`). */
    gatehouse?: GatehouseBridge;
  }
}
