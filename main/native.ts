// better-sqlite3 is a native addon built against one ABI. node_modules holds the Node build (tests and `serve`);
// the desktop loads a separate Electron-ABI build through better-sqlite3's `nativeBinding` option, so neither
// side ever needs node_modules rebuilt for the other. scripts/build-native-electron.mjs produces it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';

export const NATIVE_BUILD_COMMAND = 'npm run build:native-electron';

/** Folder name shared with scripts/build-native-electron.mjs: one build per Electron ABI. */
export function nativeAbiFolder(abi: string = process.versions.modules): string {
  return `electron-${abi}`;
}

/**
 * Where the Electron-ABI better-sqlite3 addon lives: `resources/native/electron-<abi>/better_sqlite3.node` in the
 * repository, or the same layout under the packaged app's resources folder (copied there as extraResources).
 */
export function nativeBindingPath(): string {
  const base = app.isPackaged
    ? join(process.resourcesPath, 'native')
    : join(app.getAppPath(), 'resources', 'native');
  return join(base, nativeAbiFolder(), 'better_sqlite3.node');
}

export class MissingNativeBindingError extends Error {
  constructor(readonly path: string) {
    super(
      `The database driver for this Electron version (ABI ${process.versions.modules}) is missing:\n${path}\n\n` +
        `Build it once with:\n  ${NATIVE_BUILD_COMMAND}\n\n` +
        'It needs network access to download the Electron headers. Without it, `npm run serve` runs the same ' +
        'console headless in a browser.',
    );
    this.name = 'MissingNativeBindingError';
  }
}

/** Returns the addon path, or throws MissingNativeBindingError with the command that fixes it. */
export function requireNativeBinding(): string {
  const path = nativeBindingPath();
  if (!existsSync(path)) throw new MissingNativeBindingError(path);
  return path;
}
