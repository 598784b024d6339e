// The console window: one BrowserWindow that loads the embedded server's console like a browser tab.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow } from 'electron';
import { secureWebPreferences } from './security';

/** Matches the console's dark background so the window does not flash white before the first paint. */
export const CONSOLE_BACKGROUND = '#0b0e13';

/** Files next to the bundled main (out/main/index.js): out/preload, out/renderer, resources/. */
const fromMain = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The built console that the embedded server serves (out/main → ../renderer). */
export function rendererDir(): string {
  return fromMain('../renderer');
}

/**
 * The bundled preload. A sandboxed preload is evaluated as a classic script, so it must be CommonJS: electron-vite
 * emits `index.cjs` (or `index.js`) for format "cjs", and `index.mjs` only for ESM, which cannot work here.
 */
export function preloadPath(): string {
  for (const name of ['index.cjs', 'index.js']) {
    const candidate = fromMain(`../preload/${name}`);
    if (existsSync(candidate)) return candidate;
  }
  if (existsSync(fromMain('../preload/index.mjs'))) {
    throw new Error(
      'out/preload/index.mjs is an ES module, but a sandboxed preload must be CommonJS. Set the preload output ' +
        'format to "cjs" in electron.vite.config.ts and rebuild.',
    );
  }
  throw new Error('out/preload is missing. Run `npm run build` first.');
}

function iconPath(): string | undefined {
  const candidate = app.isPackaged
    ? join(process.resourcesPath, 'icon.png')
    : fromMain('../../resources/icon.png');
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Creates the console window, hidden until its first paint (ready-to-show) so the operator never sees an empty
 * frame. `url` must use `localhost`: the WebAuthn RP ID is a host name and an IP address is not a valid one.
 */
export function createConsoleWindow(url: string): BrowserWindow {
  const bridgeArgs = [`--gatehouse-version=${app.getVersion()}`, `--gatehouse-platform=${process.platform}`];
  const icon = iconPath();
  const win = new BrowserWindow({
    title: 'Gatehouse',
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    show: false,
    backgroundColor: CONSOLE_BACKGROUND,
    autoHideMenuBar: true,
    ...(icon ? { icon } : {}),
    webPreferences: secureWebPreferences(preloadPath(), bridgeArgs),
  });
  win.once('ready-to-show', () => win.show());
  // If the first load fails (server stopped, port taken away), show the window anyway so the operator sees
  // Chromium's error page and can reload instead of staring at nothing.
  win.webContents.once('did-fail-load', (_event, code, description, failedUrl) => {
    console.error(`gatehouse: could not load ${failedUrl}: ${description} (${code})`);
    if (!win.isDestroyed() && !win.isVisible()) win.show();
  });
  void win.loadURL(url).catch(() => {
    // Reported through did-fail-load above; the rejection itself carries no extra information.
  });
  return win;
}

/** Brings an existing window to the front (second instance, dock click). */
export function focusWindow(win: BrowserWindow): void {
  if (win.isMinimized()) win.restore();
  if (!win.isVisible()) win.show();
  win.focus();
}
