// The one kit of the console: layout, tables, dialogs, forms and fields, pickers, pager, states, badges.
// Features import from here (`../../ui`); the kit never imports features or the data layer.

export * from './ActionError';
export * from './AuthFormSubmit';
export * from './Button';
export * from './basics';
export * from './charts';
export * from './Checklist';
export * from './controls';
export * from './Dialog';
export * from './DialogActions';
export * from './DialogButtons';
export * from './Drawer';
export * from './fields';
export * from './FormDialog';
export * from './filters';
export * from './Icon';
export * from './layout';
export * from './ListStates';
export * from './menu';
export * from './MfaFacts';
export * from './PageNotFound';
export * from './OutcomeStrip';
export * from './ProgressTrack';
export * from './RecoveryCodes';
export * from './RemovableChip';
export * from './ShownOnceSecret';
export * from './SmallButton';
export * from './states';
export * from './table';
export * from './VirtualTable';
export * from './TimeSeriesChart';
export * from './BarChart';
export { CHART_COLORS } from './chart-frame';
