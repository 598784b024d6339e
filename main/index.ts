// Electron main process: lifecycle only. It forks the embedded server into its own process (the same createServer
// that `serve` runs headless; main/server-process.ts), opens one console window on it, and stops the server before
// the app exits. Everything the console does goes over HTTP/WebSocket to that server; main holds no business
// logic and never loads server code.
import { resolve } from 'node:path';
import { app, dialog, session, type BrowserWindow } from 'electron';
import { MissingNativeBindingError, requireNativeBinding } from './native';
import { createSealedSecretStore } from './secret-store';
import { installAppGuards, installSessionPolicies } from './security';
import { ServerStartError, type ServerHost } from './server-host';
import { forkServerProcess } from './server-process';
import { createConsoleWindow, focusWindow, rendererDir } from './window';

const DEFAULT_PORT = 4600;
/** Upper bound for stopping the server on quit; a stuck socket must not keep the app alive forever. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

let server: ServerHost | null = null;
let consoleOrigin: string | null = null;
let consoleUrl: string | null = null;
let mainWindow: BrowserWindow | null = null;
let shuttingDown: Promise<void> | null = null;

/** `--port N` / `--port=N` on the command line (`npm start -- --port 4700`), else PORT, else 4600. */
function requestedPort(argv: readonly string[], env: NodeJS.ProcessEnv): number {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === '--port') value = argv[i + 1];
    else if (arg.startsWith('--port=')) value = arg.slice('--port='.length);
  });
  const port = Number(value ?? env.PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_PORT;
}

// DATA_DIR (DESIGN §2) overrides the desktop default (userData). Setting userData itself, before anything reads
// it, also scopes the single-instance lock and the Chromium profile to that directory, so a test or a second
// installation with its own DATA_DIR runs beside the operator's everyday instance.
if (process.env.DATA_DIR) app.setPath('userData', resolve(process.env.DATA_DIR));

if (!app.requestSingleInstanceLock()) {
  // Another instance owns this data directory; it was told (second-instance) and focuses its window.
  app.exit(0);
} else {
  installAppGuards(() => consoleOrigin);
  if (process.platform === 'win32') app.setAppUserModelId('app.gatehouse.console');

  app.on('second-instance', () => showConsole());
  // macOS keeps the app (and its server, so agents stay connected) running without windows; a dock click reopens.
  app.on('activate', () => showConsole());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (!server && !shuttingDown) return; // nothing to close: let the quit proceed
    // Hold every quit (a second Cmd-Q, a signal) until the server has closed, then leave with app.exit, which
    // does not emit before-quit again.
    event.preventDefault();
    shuttingDown ??= stopServer().finally(() => app.exit(0));
  });
  // `npm start` forwards Ctrl-C / SIGTERM here; quitting through the app closes the server cleanly.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app.whenReady().then(start).catch(failStartup);
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  const nativeBinding = requireNativeBinding();
  installSessionPolicies(session.defaultSession, () => consoleOrigin);
  // Unsealed here, handed over the parent port: the server process never touches safeStorage.
  const secretStore = createSealedSecretStore(dataDir);
  const secrets = secretStore.read();

  server = forkServerProcess({
    keepSecrets: (generated) => secretStore.write(generated),
    onUnexpectedExit: serverDied,
  });
  const started = await server.start({
    dataDir,
    host: '127.0.0.1',
    port: requestedPort(process.argv, process.env),
    portFallback: true,
    staticDir: rendererDir(),
    nativeBinding,
    secrets,
  });

  // Always `localhost`, whatever the server reports: WebAuthn rejects an IP address as RP ID.
  consoleOrigin = `http://localhost:${started.port}`;
  consoleUrl = started.setupToken
    ? `${consoleOrigin}/setup#token=${encodeURIComponent(started.setupToken)}`
    : `${consoleOrigin}/`;
  console.log(`gatehouse: console at ${consoleOrigin}/`);
  showConsole();
}

/** Focuses the console window, creating it when there is none (first start, macOS reopen, second instance). */
function showConsole(): void {
  if (mainWindow && !mainWindow.isDestroyed()) {
    focusWindow(mainWindow);
    return;
  }
  if (!consoleUrl) return; // still starting; the window opens when the server is up
  mainWindow = createConsoleWindow(consoleUrl);
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  mainWindow.webContents.on('render-process-gone', (_event, details) => {
    console.error(`gatehouse: console renderer gone (${details.reason}, exit code ${details.exitCode})`);
  });
}

async function stopServer(): Promise<void> {
  const running = server;
  server = null;
  if (!running) return;
  const { graceful, killed, code } = await running.stop(SHUTDOWN_TIMEOUT_MS);
  if (killed) console.error(`gatehouse: server did not stop within ${SHUTDOWN_TIMEOUT_MS} ms; it was killed`);
  else if (!graceful) console.error(`gatehouse: server process exited with code ${code} while stopping`);
}

/**
 * The server process ended on its own. The window would only show connection errors, and restarting it
 * automatically could loop on a fault that repeats (a full disk, a corrupt database), so say so and quit.
 */
function serverDied(code: number): void {
  server = null;
  console.error(`gatehouse: the server process exited unexpectedly (code ${code})`);
  dialog.showErrorBox(
    'Gatehouse stopped',
    `The embedded server stopped unexpectedly (exit code ${code}). Gatehouse will close; start it again.\n\n` +
      `Data directory: ${app.getPath('userData')}`,
  );
  app.exit(1);
}

function failStartup(error: unknown): void {
  if (shuttingDown) return; // quit while starting: the stopped server is no failure to report
  const detail = error instanceof Error ? error.message : String(error);
  const message =
    error instanceof MissingNativeBindingError
      ? detail
      : `The embedded server could not start:\n\n${detail}\n\nData directory: ${app.getPath('userData')}`;
  console.error(`gatehouse: startup failed: ${detail}`);
  // The server process printed its own stack; main's would only show this file.
  const local = !(error instanceof MissingNativeBindingError || error instanceof ServerStartError);
  if (local && error instanceof Error && error.stack) console.error(error.stack);
  dialog.showErrorBox('Gatehouse could not start', message);
  void stopServer().finally(() => app.exit(1));
}
