import { LabelOptions, Segmented } from '../../ui/controls';
import { SmallButton } from '../../ui/SmallButton';
import {
  CUSTOM_PREFIX,
  FIELD_GROUPS,
  FIELDS,
  OPERATOR_LABELS,
  fieldDef,
  isOffered,
  operatorsFor,
  valueShape,
  type CustomType,
} from './fields';
import {
  defOf,
  mapNode,
  newCondition,
  newGroup,
  removeNode,
  withField,
  withOperator,
  type CondNode,
  type FilterNode,
  type GroupNode,
} from './model';
import type { Problem } from './problems';
import type { Lookups } from '../../lib/directory';
import { ValueEditor } from './ValueEditor';
import './filters.css';

// The condition builder of spec 2: conditions and nested AND/OR groups to any depth. Field pickers are grouped
// as the spec groups them, operators are limited to the field's type, the value editor follows the operator.

const CUSTOM_OPTION = '__custom__';
const MAX_DEPTH_INDENT = 6;
const MATCH_OPTIONS = [
  ['AND', 'all'],
  ['OR', 'any'],
] as const;

export interface BuilderProps {
  root: GroupNode;
  onChange: (root: GroupNode) => void;
  lookups: Lookups;
  problems: Map<string, Problem>;
  serverProblems: Map<string, string>;
  /** Show "nothing entered yet" problems too (after the technician tried to apply or save). */
  showIncomplete: boolean;
}

interface Ctx extends BuilderProps {
  update: (id: string, fn: (node: FilterNode) => FilterNode) => void;
  remove: (id: string) => void;
}

function problemText(ctx: Ctx, id: string): string | null {
  const server = ctx.serverProblems.get(id);
  if (server) return server;
  const p = ctx.problems.get(id);
  if (!p) return null;
  return p.incomplete && !ctx.showIncomplete ? null : p.message;
}

function ConditionRow({ node, ctx, index }: { node: CondNode; ctx: Ctx; index: number }) {
  const def = defOf(node);
  const known = fieldDef(node.field) !== null || node.field.startsWith(CUSTOM_PREFIX);
  const isCustom = node.field.startsWith(CUSTOM_PREFIX);
  const ops = operatorsFor(def.type);
  const shape = valueShape(def, node.operator);
  const problem = problemText(ctx, node.id);
  const set = (fn: (n: CondNode) => CondNode) => ctx.update(node.id, (n) => fn(n as CondNode));

  return (
    <div className={`fb-cond${problem ? ' has-problem' : ''}`} data-testid="filter-condition">
      <div className="fb-cond-row">
        <select
          className="fb-field"
          value={isCustom ? CUSTOM_OPTION : node.field}
          aria-label={`Condition ${index + 1} field`}
          onChange={(e) =>
            set((n) =>
              withField(n, e.target.value === CUSTOM_OPTION ? CUSTOM_PREFIX : e.target.value, 'string'),
            )
          }
          data-testid="filter-field"
        >
          {!known ? <option value={node.field}>{node.field} (unknown)</option> : null}
          {known && !isCustom && !isOffered(node.field) ? (
            <option value={node.field}>{def.label}</option>
          ) : null}
          {FIELD_GROUPS.map((group) => (
            <optgroup key={group} label={group}>
              {FIELDS.filter((f) => f.group === group).map((f) => (
                <option key={f.key} value={f.key}>
                  {f.label}
                </option>
              ))}
            </optgroup>
          ))}
          <optgroup label="Custom">
            <option value={CUSTOM_OPTION}>Custom field…</option>
          </optgroup>
        </select>
        {isCustom ? (
          <span className="fb-custom">
            <span className="fb-custom-prefix mono">custom.</span>
            <input
              type="text"
              className="mono"
              value={node.field.slice(CUSTOM_PREFIX.length)}
              placeholder="fieldKey"
              aria-label="Custom field key"
              onChange={(e) => set((n) => ({ ...n, field: `${CUSTOM_PREFIX}${e.target.value.trim()}` }))}
              data-testid="filter-custom-key"
            />
            <select
              value={node.customType}
              aria-label="Custom field type"
              title="How to compare this custom field"
              onChange={(e) => set((n) => withField(n, n.field, e.target.value as CustomType))}
              data-testid="filter-custom-type"
            >
              <option value="string">text</option>
              <option value="number">number</option>
              <option value="boolean">yes/no</option>
              <option value="datetime">date</option>
            </select>
          </span>
        ) : null}
        <select
          className="fb-op"
          value={node.operator}
          aria-label={`Condition ${index + 1} operator`}
          onChange={(e) => set((n) => withOperator(n, e.target.value))}
          data-testid="filter-operator"
        >
          {!ops.includes(node.operator) ? <option value={node.operator}>{node.operator}</option> : null}
          <LabelOptions options={ops.map((op) => ({ value: op, label: OPERATOR_LABELS[op] ?? op }))} />
        </select>
        <div className="fb-value">
          <ValueEditor
            def={def}
            shape={shape}
            value={node.value}
            onChange={(value) => set((n) => ({ ...n, value }))}
            lookups={ctx.lookups}
            invalid={problem !== null}
            label={`${def.label} value`}
          />
        </div>
        <SmallButton
          tone="ghost"
          icon="close"
          className="fb-remove"
          aria-label="Remove condition"
          title="Remove condition"
          onClick={() => ctx.remove(node.id)}
          testId="filter-remove-condition"
        />
      </div>
      {problem ? (
        <div className="fb-problem" role="alert" data-testid="filter-condition-error">
          {problem}
        </div>
      ) : null}
    </div>
  );
}

function GroupBox({ node, ctx, depth }: { node: GroupNode; ctx: Ctx; depth: number }) {
  const problem = problemText(ctx, node.id);
  const addCondition = () =>
    ctx.update(node.id, (g) => ({
      ...(g as GroupNode),
      children: [...(g as GroupNode).children, newCondition()],
    }));
  const addGroup = () =>
    ctx.update(node.id, (g) => ({
      ...(g as GroupNode),
      children: [...(g as GroupNode).children, newGroup(node.operator === 'AND' ? 'OR' : 'AND')],
    }));
  const setOperator = (operator: 'AND' | 'OR') =>
    ctx.update(node.id, (g) => ({ ...(g as GroupNode), operator }));

  return (
    <div
      className={`ui-panel fb-group depth-${Math.min(depth, MAX_DEPTH_INDENT)}${depth === 0 ? ' root' : ''}`}
      data-testid={depth === 0 ? 'filter-root' : 'filter-group'}
    >
      <div className="fb-group-head">
        <span className="muted small">Match</span>
        <Segmented
          small
          label="Match all or any"
          options={MATCH_OPTIONS}
          value={node.operator}
          onChange={setOperator}
          testId={(op) => `filter-group-${op.toLowerCase()}`}
        />
        <span className="muted small">of these conditions</span>
        <span className="fb-grow" />
        {depth > 0 ? (
          <SmallButton
            tone="ghost"
            icon="trash"
            iconSize={13}
            onClick={() => ctx.remove(node.id)}
            testId="filter-remove-group"
          >
            Remove group
          </SmallButton>
        ) : null}
      </div>
      <div className="fb-children">
        {node.children.map((child, i) => (
          <div className="fb-child" key={child.id}>
            <span className={`fb-joiner${i === 0 ? ' first' : ''}`}>
              {i === 0 ? 'where' : node.operator.toLowerCase()}
            </span>
            {child.kind === 'group' ? (
              <GroupBox node={child} ctx={ctx} depth={depth + 1} />
            ) : (
              <ConditionRow node={child} ctx={ctx} index={i} />
            )}
          </div>
        ))}
        {node.children.length === 0 ? <div className="muted small fb-empty">No conditions yet.</div> : null}
      </div>
      {problem ? <div className="fb-problem">{problem}</div> : null}
      <div className="fb-group-actions">
        {(
          [
            ['condition', 'Condition', addCondition],
            ['group', 'Group', addGroup],
          ] as const
        ).map(([kind, text, add]) => (
          <SmallButton
            key={kind}
            tone="ghost"
            icon="plus"
            iconSize={13}
            onClick={add}
            testId={depth === 0 ? `filter-add-${kind}` : `filter-group-add-${kind}`}
          >
            {text}
          </SmallButton>
        ))}
      </div>
    </div>
  );
}

export function FilterBuilder(props: BuilderProps) {
  const { root, onChange } = props;
  const ctx: Ctx = {
    ...props,
    update: (id, fn) => onChange(mapNode(root, id, fn)),
    remove: (id) => onChange(removeNode(root, id)),
  };
  return <GroupBox node={root} ctx={ctx} depth={0} />;
}
