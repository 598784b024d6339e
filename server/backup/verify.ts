import { rmSync } from 'node:fs';
import { authenticatedData, extractImage, readContainerHead, type Manifest } from './container';
import { BackupError } from './errors';
import { checkImage, type ImageReport } from './image';
import { openSecrets } from './seal';

// The one verification of a backup file, used by `npm run backup` and the schedule before they report a backup
// good, and by `npm run restore` before anything in the data directory is touched.

export interface VerifiedBackup {
  manifest: Manifest;
  secrets: Record<string, string>;
  report: ImageReport;
}

/**
 * Checks the file end to end: format and length, the sealed secrets against the passphrase (their tag also
 * covers the manifest), the image against its checksum, then SQLite integrity, schema version and every audit
 * chain on the extracted image. The verified image is left at `imageDest` (created here) for the caller; on
 * failure nothing is left behind.
 */
export async function verifyBackup(
  file: string,
  passphrase: string,
  imageDest: string,
  nativeBinding?: string,
): Promise<VerifiedBackup> {
  const head = await readContainerHead(file);
  const secrets = await openSecrets(head.manifest.secrets, passphrase, authenticatedData(head.manifest));
  try {
    await extractImage(file, head, imageDest);
    const report = checkImage(imageDest, nativeBinding);
    if (report.schemaVersion !== head.manifest.schemaVersion) {
      throw new BackupError(
        `The manifest says schema version ${head.manifest.schemaVersion} but the image is at ${report.schemaVersion}`,
        'BACKUP_INVALID',
      );
    }
    return { manifest: head.manifest, secrets, report };
  } catch (err) {
    rmSync(imageDest, { force: true });
    throw err;
  }
}
