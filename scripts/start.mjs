#!/usr/bin/env node
// `npm start`: the desktop app where it can run, otherwise the same console headless (DESIGN §1 "How it runs").
//
// 1. Builds with electron-vite when out/ is missing or older than the sources (build-if-stale.mjs): both ways
//    run built code, the desktop out/main/index.js and the headless out/main/serve.js with out/renderer.
// 2. Runs Electron when its binary is installed (checked on disk: requiring the electron package would start its
//    lazy download), a display is available and the Electron-ABI better-sqlite3 build exists.
// 3. Otherwise prints one line saying why and runs the headless server bundle, out/main/serve.js, in plain Node
//    (no TypeScript transpiling at start: issue 18's cold start; `app/serve.ts` is its source).
// Arguments after `--` are forwarded (`npm start -- --port 4700`); SIGINT/SIGTERM are passed to the child and
// this process exits with the child's code.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { electronBindingPath, electronInfo, ROOT } from './build-native-electron.mjs';

// `--headless` (what `npm run serve` passes) skips the desktop and serves the console to any browser.
const headless = process.argv.includes('--headless');
const args = process.argv.slice(2).filter((arg) => arg !== '--headless');

// ------------------------------------------------------------------------------------------------- electron
/** The Electron executable if it is installed, without triggering node_modules/electron's lazy download. */
function electronExecutable() {
  const dir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const overridden = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return existsSync(overridden) ? overridden : null;
  }
  if (!relative) return null;
  const executable = join(dir, 'dist', relative);
  return existsSync(executable) ? executable : null;
}

/** Either { electron } to launch the desktop app, or { reason } why not (one line). */
function desktopDecision() {
  const electron = electronExecutable();
  if (!electron) {
    return { reason: 'no Electron binary in node_modules/electron (it cannot be downloaded here)' };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
  }
  if (process.platform === 'linux' && process.getuid?.() === 0) {
    return { reason: "running as root, where Chromium's sandbox refuses to start (use a normal user)" };
  }
  const info = electronInfo();
  if (!info) return { reason: "cannot tell the installed Electron's ABI" };
  if (!existsSync(electronBindingPath(info.abi))) {
    return { reason: `no Electron-ABI better-sqlite3 build (run npm run build:native-electron)` };
  }
  return { electron };
}

// ------------------------------------------------------------------------------------------------------ run
function runChild(command, childArgs, env = process.env) {
  const child = spawn(command, childArgs, { cwd: ROOT, stdio: 'inherit', env });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, forward);
  child.on('error', (error) => {
    console.error(`gatehouse: could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
}

buildIfStale();
const decision = headless ? { reason: null } : desktopDecision();
if (decision.electron) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make the binary behave as plain Node
  runChild(decision.electron, ['.', ...args], env);
} else {
  if (decision.reason) console.log(`gatehouse: ${decision.reason}; serving headless instead`);
  runChild(process.execPath, [join(ROOT, 'out', 'main', 'serve.js'), ...args]);
}
