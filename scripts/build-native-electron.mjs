#!/usr/bin/env node
// Builds better-sqlite3 for the installed Electron into resources/native/electron-<abi>/better_sqlite3.node.
//
// node_modules keeps the Node-ABI build that tests and `serve` load; the desktop passes this second build to
// better-sqlite3 as `nativeBinding` (main/native.ts). The build happens in a temporary copy of the package, so
// node_modules is never touched and never has to be rebuilt back for Node.
//
// Usage: npm run build:native-electron [-- --force] [-- --prebuilt]
//   --force     rebuild even when the output exists
//   --prebuilt  try the official prebuilt binary (prebuild-install, from GitHub releases) before compiling
// Compiling needs a C++ toolchain (as for any node-gyp build) and network access to https://electronjs.org/headers.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Installed Electron's version and NODE_MODULE_VERSION, read from its package files (never downloads anything). */
export function electronInfo() {
  const dir = join(ROOT, 'node_modules', 'electron');
  const pkgFile = join(dir, 'package.json');
  if (!existsSync(pkgFile)) return null;
  const version = JSON.parse(readFileSync(pkgFile, 'utf8')).version;
  let abi = null;
  const abiFile = join(dir, 'abi_version');
  if (existsSync(abiFile)) abi = readFileSync(abiFile, 'utf8').trim();
  if (!abi) {
    try {
      abi = require('node-abi').getAbi(version, 'electron');
    } catch {
      abi = null;
    }
  }
  return abi ? { version, abi, dir } : null;
}

/** Where main/native.ts looks for the Electron-ABI addon (keep in sync with nativeBindingPath there). */
export function electronBindingPath(abi) {
  return join(ROOT, 'resources', 'native', `electron-${abi}`, 'better_sqlite3.node');
}

/** node-gyp: the project's own if installed, else the one npm runs scripts with, else the copy bundled with npm. */
function findNodeGyp() {
  const candidates = [];
  try {
    candidates.push(require.resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not a project dependency; fall through to npm's
  }
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  if (process.env.npm_execpath) {
    candidates.push(
      join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    );
  }
  const nodeDir = dirname(process.execPath);
  candidates.push(
    join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  );
  candidates.push(join(nodeDir, 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')); // Windows
  return candidates.find((file) => existsSync(file)) ?? null;
}

/**
 * The environment for the build tools. A `nodedir` npm setting (npm_config_nodedir, e.g. `nodedir=/usr` in
 * ~/.npmrc for offline Node builds) would make node-gyp compile against Node's headers instead of Electron's and
 * silently produce a Node-ABI addon, so it is removed; the same goes for settings that pin another runtime.
 */
function buildEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|build_from_source)$/i.test(key))
      delete env[key];
  }
  return env;
}

/** True when the addon was built for `abi`: V8 addons export node_register_module_v<ABI>. */
function hasAbi(file, abi) {
  return readFileSync(file).includes(`node_register_module_v${abi}`);
}

function run(label, args, cwd) {
  console.log(`build-native-electron: ${label}`);
  const result = spawnSync(process.execPath, args, { cwd, stdio: 'inherit', env: buildEnv() });
  if (result.error) console.error(`build-native-electron: ${result.error.message}`);
  return result.status === 0;
}

function compileFromSource(work, electron) {
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) {
    console.error(
      'build-native-electron: node-gyp not found (neither in node_modules nor bundled with npm).',
    );
    return false;
  }
  return run(
    `compiling better-sqlite3 for Electron ${electron.version} (ABI ${electron.abi}) with ${nodeGyp}`,
    [
      nodeGyp,
      'rebuild',
      '--release',
      `--target=${electron.version}`,
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
      '--runtime=electron',
    ],
    work,
  );
}

function downloadPrebuilt(work, electron) {
  let bin;
  try {
    bin = require.resolve('prebuild-install/bin.js');
  } catch {
    console.error('build-native-electron: prebuild-install is not installed.');
    return false;
  }
  return run(
    `fetching the prebuilt better-sqlite3 for Electron ${electron.version} (ABI ${electron.abi})`,
    [
      bin,
      '--runtime=electron',
      `--target=${electron.version}`,
      `--arch=${process.arch}`,
      `--platform=${process.platform}`,
    ],
    work,
  );
}

function main(argv) {
  const force = argv.includes('--force');
  const preferPrebuilt = argv.includes('--prebuilt');
  const electron = electronInfo();
  if (!electron) {
    console.error('build-native-electron: electron is not installed in node_modules (run npm install).');
    return 1;
  }
  const output = electronBindingPath(electron.abi);
  if (existsSync(output) && !force) {
    console.log(`build-native-electron: already built: ${output} (use --force to rebuild)`);
    return 0;
  }
  const source = join(ROOT, 'node_modules', 'better-sqlite3');
  if (!existsSync(join(source, 'binding.gyp'))) {
    console.error('build-native-electron: node_modules/better-sqlite3 is missing (run npm install).');
    return 1;
  }

  const work = join(mkdtempSync(join(tmpdir(), 'gatehouse-native-')), 'better-sqlite3');
  try {
    // The package's sources and its bundled SQLite amalgamation; the Node build output stays behind.
    cpSync(source, work, {
      recursive: true,
      filter: (file) => !(basename(file) === 'build' && dirname(file) === source),
    });
    const attempts = preferPrebuilt
      ? [downloadPrebuilt, compileFromSource]
      : [compileFromSource, downloadPrebuilt];
    const addon = join(work, 'build', 'Release', 'better_sqlite3.node');
    let built = false;
    for (const attempt of attempts) {
      rmSync(join(work, 'build'), { recursive: true, force: true });
      if (!attempt(work, electron) || !existsSync(addon)) continue;
      if (hasAbi(addon, electron.abi)) {
        built = true;
        break;
      }
      console.error(`build-native-electron: the result is not built for ABI ${electron.abi}; discarding it.`);
    }
    if (!built) {
      console.error(
        [
          '',
          `build-native-electron: could not build better-sqlite3 for Electron ${electron.version} (ABI ${electron.abi}).`,
          '  Compiling needs network access to https://electronjs.org/headers (Electron headers) and a C++ toolchain;',
          '  the prebuilt download needs access to github.com. Neither worked on this machine (see above).',
          '  The headless server does not need this: `npm run serve` serves the same console to a browser.',
        ].join('\n'),
      );
      return 1;
    }
    mkdirSync(dirname(output), { recursive: true });
    copyFileSync(addon, output);
    console.log(`build-native-electron: wrote ${output} (${statSync(output).size} bytes)`);
    return 0;
  } finally {
    rmSync(dirname(work), { recursive: true, force: true });
  }
}

// Run only when executed directly; scripts/start.mjs imports the helpers above.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
