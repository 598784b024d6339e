// The desktop shell end to end: Electron starts the embedded server, opens the console on localhost, exposes the
// narrow `gatehouse` bridge and keeps Node out of the page. Skipped (with the reason) where Electron cannot run:
// no binary (it downloads lazily and some machines cannot), no display, or no Electron-ABI better-sqlite3 build.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { GatehouseBridge } from '../../preload/api';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');
const APP_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;

/** The Electron executable, looked up on disk: requiring the electron package would start its lazy download. */
function electronExecutable(): string | null {
  const pathFile = join(ELECTRON_DIR, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const executable = override
    ? join(override, relative || 'electron')
    : relative
      ? join(ELECTRON_DIR, 'dist', relative)
      : null;
  return executable && existsSync(executable) ? executable : null;
}

/** Mirrors main/native.ts: resources/native/electron-<abi>/better_sqlite3.node. */
function electronBindingPath(): string | null {
  const abiFile = join(ELECTRON_DIR, 'abi_version');
  if (!existsSync(abiFile)) return null;
  return join(
    ROOT,
    'resources',
    'native',
    `electron-${readFileSync(abiFile, 'utf8').trim()}`,
    'better_sqlite3.node',
  );
}

function skipReason(): string | null {
  if (!electronExecutable()) {
    return 'No Electron binary in node_modules/electron: it is fetched lazily on first use and cannot be downloaded here';
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'No display: neither DISPLAY nor WAYLAND_DISPLAY is set (try xvfb-run)';
  }
  const binding = electronBindingPath();
  if (!binding || !existsSync(binding)) {
    return 'No Electron-ABI better-sqlite3 build in resources/native: run npm run build:native-electron';
  }
  return null;
}

const reason = skipReason();
// The list reporter does not print skip reasons, so say it once where CI logs show it.
if (reason) console.log(`electron.spec: skipped: ${reason}`);
test.skip(reason !== null, reason ?? '');

test.describe('desktop shell', () => {
  // One app for the whole group: launching Electron is the expensive part.
  test.describe.configure({ mode: 'serial' });

  let app: ElectronApplication;
  let dataDir: string;

  test.beforeAll(async () => {
    expect(
      existsSync(join(ROOT, 'out', 'main', 'index.js')),
      'out/main/index.js is missing: run npm run build',
    ).toBe(true);
    dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-electron-e2e-'));
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    delete env.ELECTRON_RUN_AS_NODE;
    Object.assign(env, {
      DATA_DIR: dataDir,
      PORT: '4650', // the app moves to the next free port when this one is busy
      LOG_LEVEL: 'warn',
      // A user exists, so the window opens the console itself rather than the first-run setup page.
      BOOTSTRAP_ADMIN_EMAIL: 'admin@gatehouse.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'correct-horse-battery-staple',
    });
    app = await electron.launch({ executablePath: electronExecutable()!, args: ['.'], cwd: ROOT, env });
  });

  test.afterAll(async () => {
    // close() quits the app, which closes the embedded server before exiting (before-quit in main/index.ts).
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('opens the console on http://localhost:<port>/', async () => {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    const url = new URL(page.url());
    // localhost, never 127.0.0.1: an IP address is not a valid WebAuthn RP ID.
    expect(url.protocol).toBe('http:');
    expect(url.hostname).toBe('localhost');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname.startsWith('/setup')).toBe(false);
    await expect(page).toHaveTitle(/Gatehouse/);
    await expect(page.locator('body')).not.toBeEmpty();

    const windowUrl = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows()[0]?.webContents.getURL(),
    );
    expect(new URL(windowUrl ?? '').origin).toBe(url.origin);
  });

  test('exposes only the read-only gatehouse bridge', async () => {
    const page = await app.firstWindow();
    const bridge = await page.evaluate(() => (globalThis as { gatehouse?: GatehouseBridge }).gatehouse);
    expect(bridge).toEqual({ appVersion: APP_VERSION, platform: process.platform });
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getVersion())).toBe(APP_VERSION);
  });

  test('keeps Node out of the page (context isolation, sandbox)', async () => {
    const page = await app.firstWindow();
    const globals = await page.evaluate(() => {
      const scope = globalThis as Record<string, unknown>;
      return { require: typeof scope.require, process: typeof scope.process, module: typeof scope.module };
    });
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined' });
  });

  test('denies new windows', async () => {
    const page = await app.firstWindow();
    // http (not https) so the denied link is not handed to the system browser either.
    const opened = await page.evaluate(() => {
      const page = globalThis as unknown as { open(url: string): unknown };
      return page.open('http://example.invalid/') !== null;
    });
    expect(opened).toBe(false);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });
});
