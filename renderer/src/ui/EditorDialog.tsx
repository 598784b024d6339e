import type { FormEvent, ReactNode } from 'react';
import { FormDialog } from './FormDialog';

/** The ids and the creating title and submit label of an EditorDialog (editing: "Edit <name>", "Save changes"). */
export interface EditorTexts {
  idPrefix: string;
  createTitle: string;
  createLabel: string;
}

/**
 * The dialog that creates a thing or edits an existing one (`<idPrefix>-dialog`, `<idPrefix>-form`, its submit
 * `<idPrefix>-save`): titled and labelled for creating until there is a name being edited, then "Edit <name>" and
 * "Save changes". The form validates itself (noValidate) and shows the save's error that names no field.
 */
export function EditorDialog({
  texts: { idPrefix, createTitle, createLabel },
  editing,
  state,
  onSubmit,
  onClose,
  children,
}: {
  /** What names the dialog: a module constant of the feature. */
  texts: EditorTexts;
  /** The thing edited (null: a new one). */
  editing: { name: string } | null;
  /** The save in flight and its error (null when the fields show it themselves). */
  state: { busy: boolean; error: unknown };
  onSubmit: (event: FormEvent) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <FormDialog
      wide
      title={editing === null ? createTitle : `Edit ${editing.name}`}
      onClose={onClose}
      testId={`${idPrefix}-dialog`}
      onSubmit={(e) => void onSubmit(e)}
      action={state}
      submit={{ label: editing === null ? createLabel : 'Save changes', testId: `${idPrefix}-save` }}
    >
      {children}
    </FormDialog>
  );
}
