// Electron main process: lifecycle only. It starts the embedded server (the same createServer that `serve` runs
// headless), opens one console window on it, and closes the server before the app exits. Everything the console
// does goes over HTTP/WebSocket to that server; main holds no business logic.
import { resolve } from 'node:path';
import { app, dialog, session, type BrowserWindow } from 'electron';
import { createServer } from '../server/index';
import { MissingNativeBindingError, requireNativeBinding } from './native';
import { createSealedSecretStore } from './secret-store';
import { installAppGuards, installSessionPolicies } from './security';
import { createConsoleWindow, focusWindow, rendererDir } from './window';

type RunningServer = Awaited<ReturnType<typeof createServer>>;

const DEFAULT_PORT = 4600;
/** Upper bound for closing the server on quit; a stuck socket must not keep the app alive forever. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

let server: RunningServer | null = null;
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

  server = await createServer({
    dataDir,
    host: '127.0.0.1',
    port: requestedPort(process.argv, process.env),
    portFallback: true,
    staticDir: rendererDir(),
    secretStore: createSealedSecretStore(dataDir),
    nativeBinding,
  });

  // Always `localhost`, whatever the server reports: WebAuthn rejects an IP address as RP ID.
  consoleOrigin = `http://localhost:${server.port}`;
  consoleUrl = server.setupToken
    ? `${consoleOrigin}/setup#token=${encodeURIComponent(server.setupToken)}`
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
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolveTimeout) => {
    timer = setTimeout(() => {
      console.error(`gatehouse: server did not close within ${SHUTDOWN_TIMEOUT_MS} ms; exiting anyway`);
      resolveTimeout();
    }, SHUTDOWN_TIMEOUT_MS);
  });
  try {
    await Promise.race([running.close(), timeout]);
  } catch (error) {
    console.error('gatehouse: error while closing the server:', error);
  } finally {
    clearTimeout(timer);
  }
}

function failStartup(error: unknown): void {
  const detail = error instanceof Error ? error.message : String(error);
  const message =
    error instanceof MissingNativeBindingError
      ? detail
      : `The embedded server could not start:\n\n${detail}\n\nData directory: ${app.getPath('userData')}`;
  console.error(`gatehouse: startup failed: ${detail}`);
  if (error instanceof Error && error.stack && !(error instanceof MissingNativeBindingError))
    console.error(error.stack);
  dialog.showErrorBox('Gatehouse could not start', message);
  void stopServer().finally(() => app.exit(1));
}
