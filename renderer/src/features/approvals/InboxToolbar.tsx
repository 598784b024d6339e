import { useOrganizations } from '../../lib/directory';
import { ChoiceSelect, ListToolbar, TextFilter, ToggleChips } from '../../ui';
import type { InboxFilters } from './api';
import { FLOW_LABEL, FLOW_TYPES, RISK_LABEL } from './format';
import { RISKS, riskList } from './inbox-filters';

// The inbox's search and filter bar on the kit's ListToolbar: risk chips (several at once), flow, organization,
// device and user. Typed fields are held by the caller until typing pauses.

type Typed = Pick<InboxFilters, 'q' | 'device' | 'user'>;

/** The narrow typed filters beside the selects, each labelled by what it matches. */
const TEXT_FILTERS: ReadonlyArray<{ key: 'device' | 'user'; label: string }> = [
  { key: 'device', label: 'Device' },
  { key: 'user', label: 'User' },
];

export function InboxToolbar({
  filters,
  typed,
  onType,
  onSet,
}: {
  filters: InboxFilters;
  typed: Typed;
  onType: (patch: Partial<Typed>) => void;
  onSet: (patch: Partial<InboxFilters>) => void;
}) {
  const { orgs } = useOrganizations();
  const risks = riskList(filters);
  // Kept in triage order, so the address reads the same whichever chip was pressed first.
  const setRisks = (next: readonly string[]) =>
    onSet({ riskLevel: RISKS.filter((r) => next.includes(r)).join(',') });
  return (
    <ListToolbar
      className="ap-toolbar"
      query={typed.q}
      onQuery={(q) => onType({ q })}
      placeholder="Search file, signer, command, user, device"
      searchTestId="inbox-search"
      filters={
        <>
          <ToggleChips
            label="Risk"
            options={RISKS}
            values={risks}
            onChange={setRisks}
            testIdPrefix="inbox-risk"
            chip={(risk) => (
              <>
                <span className={`ap-risk-dot ${risk}`} aria-hidden="true" />
                {RISK_LABEL[risk]}
              </>
            )}
          />
          <ChoiceSelect
            value={filters.flowType}
            onChange={(flowType) => onSet({ flowType })}
            ariaLabel="Flow"
            emptyLabel="All flows"
            options={FLOW_TYPES.map((f) => ({ value: f, label: FLOW_LABEL[f] }))}
            testId="inbox-flow"
          />
          {orgs.length > 1 ? (
            <ChoiceSelect
              value={filters.orgId}
              onChange={(orgId) => onSet({ orgId })}
              ariaLabel="Organization"
              emptyLabel="All organizations"
              options={orgs.map((o) => ({ value: o.id, label: o.name }))}
              testId="inbox-org-filter"
            />
          ) : null}
          {TEXT_FILTERS.map(({ key, label }) => (
            <TextFilter
              key={key}
              value={typed[key]}
              onChange={(value) => onType({ [key]: value })}
              label={label}
              placeholder={label}
              size="narrow"
              testId={`inbox-${key}`}
            />
          ))}
        </>
      }
    />
  );
}
