// The public surface of the approvals feature: what the route table and other features may import.

export { ApprovalsSection } from './ApprovalsSection';
export {
  FLOW_LABEL,
  flowLabel,
  STATUS_LABEL,
  STATUS_TONE,
  minutesText,
  requestPath,
  type Tone,
} from './format';
