import type { ReactNode } from 'react';
import { SnippetRevealDialog } from './KeyReveal';
import { RevokeKeyConfirm, RotateKeyConfirm, type KeyModal } from './shared';

// The row dialogs an API key and a partner key share (rotate, revoke) and the reveal of a new or rotated key:
// one component, told by a kind descriptor what differs between the two.

/** What differs between issued key kinds in their rotate, revoke and reveal dialogs. */
export interface IssuedKeyKind<Created> {
  /** "API key", "Partner key": the reveal dialog's title and the secret's label. */
  noun: string;
  testIdPrefix: string;
  rotate: (id: string) => Promise<Created>;
  revoke: (id: string) => Promise<unknown>;
  /** Who must be given a rotated key ("every integration"). */
  usedBy: string;
  /** What a rotated key carries over. */
  keeps: string;
  /** The calls a revoked key no longer opens ("Requests"). */
  refused: ReactNode;
  /** The snippet that puts a new key to use. */
  snippet: (key: Created) => { label: string; text: string; copyLabel: string };
}

/**
 * Rotate, revoke and reveal for an issued key tab, driven by the tab's useKeyModals (`modals`); `closeFor` closes
 * the named dialog only, so a rotation's reveal outlives the rotate dialog's close.
 */
export function IssuedKeyDialogs<
  K extends { id: string; name: string; keyPrefix: string },
  C extends { name: string; key: string },
>({
  kind,
  modals: { modal, closeFor, reveal, done },
}: {
  kind: IssuedKeyKind<C>;
  modals: {
    modal: KeyModal<K, C, 'edit' | 'rotate' | 'revoke'> | null;
    closeFor: (kind: 'rotate' | 'revoke' | 'reveal') => () => void;
    reveal: (key: C, rotated: boolean) => void;
    done: () => void;
  };
}) {
  return (
    <>
      {modal?.kind === 'rotate' ? (
        <RotateKeyConfirm
          on={{ k: modal.key, onClose: closeFor('rotate'), onDone: (key: C) => reveal(key, true) }}
          testIdPrefix={kind.testIdPrefix}
          write={kind.rotate}
          usedBy={kind.usedBy}
          keeps={kind.keeps}
        />
      ) : null}
      {modal?.kind === 'revoke' ? (
        <RevokeKeyConfirm
          on={{ k: modal.key, onClose: closeFor('revoke'), onDone: done }}
          testIdPrefix={kind.testIdPrefix}
          write={kind.revoke}
          refused={kind.refused}
        />
      ) : null}
      <SnippetRevealDialog
        reveal={modal?.kind === 'reveal' ? modal : null}
        noun={kind.noun}
        testIdPrefix={kind.testIdPrefix}
        onClose={closeFor('reveal')}
        snippet={kind.snippet}
      />
    </>
  );
}
