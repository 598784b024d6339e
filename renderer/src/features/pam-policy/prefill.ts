import type { ElevationRequest, PamVerdict } from '../../../../server/contract';
import type { RequestCriterionKey, RuleDraft } from './model';
import { NAME_MAX } from './model';

// A rule from a request: which of the request's facts prefill the rule editor, and how.

// ---- Prefill from an elevation request ---------------------------------------------------------------------------

export type PrefillKey = RequestCriterionKey | 'site';

export interface PrefillItem {
  key: PrefillKey;
  label: string;
  value: string;
  /** What shows in the checklist (e.g. the site's name, not its id). */
  display: string;
}

/** The values a request offers as criteria, in the order the checklist shows them. */
export function prefillItems(r: ElevationRequest): PrefillItem[] {
  const items: PrefillItem[] = [];
  const push = (key: PrefillKey, label: string, value: string | number | null, display?: string) => {
    if (value === null || value === '') return;
    items.push({ key, label, value: String(value), display: display ?? String(value) });
  };
  if (r.flowType === 'ai_tool_action') {
    push('toolName', 'Tool', r.toolName);
    push('riskTier', 'Risk tier', r.riskTier);
  } else {
    push('signer', 'Signer', r.targetExecutableSigner);
    push('thumbprint', 'Signer thumbprint', r.targetSignerThumbprint);
    push('hash', 'SHA-256 hash', r.targetExecutableHash);
    push('pathGlob', 'Path', r.targetExecutablePath);
    push('parentImage', 'Parent process', r.parentImage);
    push('commandLine', 'Command line', r.commandLine);
  }
  push('user', 'User', r.subjectUsername);
  if (r.siteId) push('site', 'Only at site', r.siteId, r.siteName ?? r.siteId);
  return items;
}

/** Which criteria start checked: enough to pin the executable or tool, not the narrowing extras. */
export function defaultPrefill(r: ElevationRequest): Set<PrefillKey> {
  const on = new Set<PrefillKey>();
  if (r.flowType === 'ai_tool_action') {
    if (r.toolName) on.add('toolName');
    if (r.riskTier !== null) on.add('riskTier');
    return on;
  }
  if (r.targetExecutableSigner) on.add('signer');
  else if (r.targetExecutableHash) on.add('hash');
  if (r.targetExecutablePath) on.add('pathGlob');
  return on;
}

export function fileOf(path: string | null): string | null {
  if (!path) return null;
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? null;
}

/** "Allow setup.exe signed by Contoso Ltd", "Allow run_powershell at tier 2". */
export function prefillName(r: ElevationRequest, on: ReadonlySet<PrefillKey>, verdict: PamVerdict): string {
  const verb =
    verdict === 'auto_deny'
      ? 'Deny'
      : verdict === 'require_approval'
        ? 'Ask for'
        : verdict === 'ignore'
          ? 'Ignore'
          : 'Allow';
  if (r.flowType === 'ai_tool_action') {
    const tool = on.has('toolName') && r.toolName ? r.toolName : 'AI tool actions';
    const tier = on.has('riskTier') && r.riskTier !== null ? ` at tier ${r.riskTier}` : '';
    return `${verb} ${tool}${tier}`.slice(0, NAME_MAX);
  }
  const file = fileOf(r.targetExecutablePath) ?? 'executable';
  let name = `${verb} ${file}`;
  if (on.has('signer') && r.targetExecutableSigner) name += ` signed by ${r.targetExecutableSigner}`;
  else if (on.has('hash') && r.targetExecutableHash)
    name += ` (SHA-256 ${r.targetExecutableHash.slice(0, 8)}…)`;
  if (on.has('user') && r.subjectUsername) name += ` for ${r.subjectUsername}`;
  if (on.has('site') && r.siteName) name += ` at ${r.siteName}`;
  return name.slice(0, NAME_MAX);
}

/** The request's criteria the draft uses as they are (what the checklist shows ticked). */
export function prefillChecked(d: RuleDraft, r: ElevationRequest): Set<PrefillKey> {
  const on = new Set<PrefillKey>();
  const tool = r.flowType === 'ai_tool_action';
  if ((d.shape === 'tool') !== tool) return on;
  const same = (a: string, b: string) => a.trim() !== '' && a.trim() === b.trim();
  for (const item of prefillItems(r)) {
    let current: string;
    switch (item.key) {
      case 'thumbprint':
        current = d.signerMode === 'signer' ? d.thumbprint : '';
        break;
      case 'site':
        current = d.siteId;
        break;
      case 'signer':
        current = d.signerMode === 'signer' && !d.signer.negate ? d.signer.value : '';
        break;
      default:
        current = d[item.key].negate ? '' : d[item.key].value;
    }
    if (same(current, item.value)) on.add(item.key);
  }
  return on;
}

/** The draft a request's checked criteria make. */
export function applyPrefill(base: RuleDraft, r: ElevationRequest, on: ReadonlySet<PrefillKey>): RuleDraft {
  let d: RuleDraft = {
    ...base,
    shape: r.flowType === 'ai_tool_action' ? 'tool' : 'executable',
    signerMode: 'signer',
  };
  for (const item of prefillItems(r)) d = prefillOne(d, item, on.has(item.key));
  return d;
}

/** Checks or unchecks one criterion of the request: fills the field with the request's value, or clears it. */
export function prefillOne(d: RuleDraft, item: PrefillItem, checked: boolean): RuleDraft {
  const value = checked ? item.value : '';
  // Ticking a criterion of the other shape switches to it (the user and site fit both).
  if (checked && (item.key === 'toolName' || item.key === 'riskTier')) d = { ...d, shape: 'tool' };
  else if (checked && item.key !== 'user' && item.key !== 'site') d = { ...d, shape: 'executable' };
  switch (item.key) {
    case 'thumbprint':
      return { ...d, thumbprint: value };
    case 'site':
      return { ...d, siteId: value };
    case 'signer':
      return { ...d, signer: { value, negate: false }, signerMode: checked ? 'signer' : d.signerMode };
    default:
      return { ...d, [item.key]: { value, negate: false } };
  }
}
