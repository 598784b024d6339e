/** Why a backup or restore was refused; the CLI prints the message, the schedule records it. */
export type BackupErrorCode =
  | 'BACKUP_INVALID'
  | 'BACKUP_CHECKSUM_MISMATCH'
  | 'BACKUP_PASSPHRASE_MISMATCH'
  | 'BACKUP_PASSPHRASE_MISSING'
  | 'BACKUP_INTEGRITY_FAILED'
  | 'BACKUP_AUDIT_CHAIN_BROKEN'
  | 'BACKUP_SCHEMA_TOO_NEW'
  | 'BACKUP_SOURCE_MISSING'
  | 'BACKUP_TARGET_EXISTS'
  | 'SERVER_RUNNING';

export class BackupError extends Error {
  constructor(
    message: string,
    readonly code: BackupErrorCode,
  ) {
    super(message);
    this.name = 'BackupError';
  }
}
