import { Dialog, ShownOnceSecret, type DialogProps } from '../../ui';

// A signing secret shown exactly once (after create or rotate): the server keeps it sealed and only ever says
// `hasSecret`, so this is the one moment it can be copied into the receiver.

export function SecretRevealDialog({
  title,
  secret,
  onClose,
}: { title: string; secret: string } & Pick<DialogProps, 'onClose'>) {
  return (
    <Dialog open title={title} onClose={onClose} testId="webhook-secret-dialog" wide>
      <ShownOnceSecret
        secret={secret}
        warning="Copy the signing secret now. You will not see it again."
        detail={
          <>
            The receiver uses it to check <span className="mono">X-Service-Signature</span> on every delivery.
            If it is lost, rotate the secret from the webhook&apos;s page.
          </>
        }
        testIdPrefix="signing"
        onDone={onClose}
      />
    </Dialog>
  );
}
