import { escapeLike } from '../../db/like';
import {
  bool,
  dateValue,
  ago,
  LIKE_ESCAPE,
  not,
  num,
  oneOf,
  range,
  text,
  textList,
  type Binder,
  type DateValue,
  type Expr,
  type Leaf,
} from './leaf';
import { pattern } from './regexp';
import { requiredPrefixes } from './regexp-prefix';

// Each operator of each field type as SQL over `devices d`, with the semantics compile.ts describes: negative
// operators are the exact complement of their positive one, positive operators never match a missing value.

export function compileString(e: Expr, leaf: Leaf, b: Binder): string {
  const like = (value: string) => `${e(b)} LIKE ${b.bind(value)} ${LIKE_ESCAPE}`;
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(text(leaf))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(text(leaf))}`);
    case 'contains':
      return like(`%${escapeLike(text(leaf))}%`);
    case 'notContains':
      return not(like(`%${escapeLike(text(leaf))}%`));
    case 'startsWith':
      return like(`${escapeLike(text(leaf))}%`);
    case 'endsWith':
      return like(`%${escapeLike(text(leaf))}`);
    case 'matches': {
      const p = pattern(leaf);
      // The index range of the text every match starts with first, so the pattern runs only on those devices.
      const prefixes = requiredPrefixes(p);
      const narrowed = prefixes
        ? `(${prefixes.map((x) => like(`${escapeLike(x)}%`)).join(' OR ')}) AND `
        : '';
      return `${narrowed}${e(b)} REGEXP ${b.bind(p)}`;
    }
    case 'in':
      return `${e(b)} IN ${b.list(textList(leaf))}`;
    case 'notIn':
      return not(`${e(b)} IN ${b.list(textList(leaf))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

export function compileEnum(e: Expr, values: readonly string[], leaf: Leaf, b: Binder): string {
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(oneOf(leaf, values, text(leaf)))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(oneOf(leaf, values, text(leaf)))}`);
    case 'in':
      return `${e(b)} IN ${b.list(textList(leaf).map((v) => oneOf(leaf, values, v)))}`;
    default: // notIn
      return not(`${e(b)} IN ${b.list(textList(leaf).map((v) => oneOf(leaf, values, v)))}`);
  }
}

export function compileDatetime(e: Expr, leaf: Leaf, b: Binder, now: Date): string {
  const equals = (d: DateValue) =>
    d.wholeDay
      ? `(${e(b)} >= ${b.bind(d.start)} AND ${e(b)} < ${b.bind(d.end)})`
      : `${e(b)} = ${b.bind(d.start)}`;
  switch (leaf.operator) {
    case 'equals':
      return equals(dateValue(leaf));
    case 'notEquals':
      return not(equals(dateValue(leaf)));
    case 'before':
      return `${e(b)} < ${b.bind(dateValue(leaf).start)}`;
    case 'after': {
      const d = dateValue(leaf);
      return d.wholeDay ? `${e(b)} >= ${b.bind(d.end)}` : `${e(b)} > ${b.bind(d.end)}`;
    }
    case 'between': {
      const { from, to } = range(
        leaf,
        (v, what) => dateValue(leaf, v, what),
        // `to` as a day runs to its end: 10:00 on 1 March is not after "1 March".
        (a, z) => (z.wholeDay ? a.start < z.end : a.start <= z.end),
      );
      // Built left to right: parameters are bound in the order their placeholders appear.
      const lower = `${e(b)} >= ${b.bind(from.start)}`;
      const upper = to.wholeDay ? `${e(b)} < ${b.bind(to.end)}` : `${e(b)} <= ${b.bind(to.end)}`;
      return `(${lower} AND ${upper})`;
    }
    case 'withinLast':
      return `${e(b)} >= ${b.bind(ago(leaf, now))}`;
    case 'notWithinLast':
      return not(`${e(b)} >= ${b.bind(ago(leaf, now))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

export function compileBoolean(e: Expr, leaf: Leaf, b: Binder): string {
  switch (leaf.operator) {
    case 'equals':
      return `${e(b)} = ${b.bind(bool(leaf))}`;
    case 'notEquals':
      return not(`${e(b)} = ${b.bind(bool(leaf))}`);
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

export function compileNumber(e: Expr, leaf: Leaf, b: Binder, wholeDays = false): string {
  const equals = (n: number) =>
    wholeDays ? `(${e(b)} >= ${b.bind(n)} AND ${e(b)} < ${b.bind(n + 1)})` : `${e(b)} = ${b.bind(n)}`;
  switch (leaf.operator) {
    case 'equals':
      return equals(num(leaf));
    case 'notEquals':
      return not(equals(num(leaf)));
    case 'greaterThan':
      return `${e(b)} > ${b.bind(num(leaf))}`;
    case 'greaterThanOrEquals':
      return `${e(b)} >= ${b.bind(num(leaf))}`;
    case 'lessThan':
      return `${e(b)} < ${b.bind(num(leaf))}`;
    case 'lessThanOrEquals':
      return `${e(b)} <= ${b.bind(num(leaf))}`;
    case 'between': {
      const { from, to } = range(
        leaf,
        (v, what) => num(leaf, v, what),
        (a, z) => a <= z,
      );
      return `(${e(b)} >= ${b.bind(from)} AND ${e(b)} <= ${b.bind(to)})`;
    }
    case 'isNull':
      return `${e(b)} IS NULL`;
    default: // isNotNull
      return `${e(b)} IS NOT NULL`;
  }
}

/**
 * Tags and software are matched through their case-folded dictionaries and link tables (migration 0018): a name
 * condition picks names from the dictionary (a few hundred rows, unique under NOCASE), and the links name the
 * devices that have them by `filter_key`, an integer in the covering index devices_filter. Group membership has
 * no dictionary; its rows name the device by id.
 */
interface Child {
  /** The link table, its alias, and the column that names the device. */
  table: string;
  alias: string;
  deviceColumn: string;
  /** The devices column that column holds. */
  devicesColumn: string;
  /** Scan and probe rather than let the planner drive from the set (see below). */
  neverDrive: boolean;
}
const TAG_LINKS: Child = {
  table: 'device_tag_links',
  alias: 't',
  deviceColumn: 't.device_key',
  devicesColumn: 'd.filter_key',
  neverDrive: true,
};
const SOFTWARE_LINKS: Child = {
  table: 'device_software_links',
  alias: 's',
  deviceColumn: 's.device_key',
  devicesColumn: 'd.filter_key',
  neverDrive: true,
};
const MEMBERS: Child = {
  table: 'device_group_members',
  alias: 'm',
  deviceColumn: 'm.device_id',
  devicesColumn: 'd.id',
  neverDrive: false,
};

// In the 'set' form a child condition is `d.filter_key [NOT] IN (SELECT device_key ...)`: the subquery does not
// depend on the device, so SQLite runs it once and probes the set per device (an integer probe for tags and
// software, with a Bloom filter in front). For those the unary `+` keeps the planner from driving the query from
// the set, which would read the wide devices row of each member: at 50,000 devices scanning the covering index
// and probing took 30 ms where driving from a 13,000-device tag set took 110 ms, and a rare tag still costs one
// scan of the narrow index. Groups keep the planner's choice: a group is often small, and its rows name devices
// by text id, which is slow to probe. The set's column is never NULL, so NOT IN is the exact complement. In the 'probe' form it is a correlated lookup of
// the device's own rows (see ChildForm).

/** Devices having (or, negated, lacking) a child row matching `where`; any child row when `where` is omitted. */
function childTest(b: Binder, c: Child, negate: boolean, where?: string): string {
  if (b.childForm === 'probe')
    return `${negate ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${c.table} ${c.alias} WHERE ${c.deviceColumn} = ${c.devicesColumn}${where ? ` AND ${where}` : ''})`;
  return inSet(c, negate, where ? ` WHERE ${where}` : '');
}
const inSet = (c: Child, negate: boolean, rest: string) =>
  `${c.neverDrive ? '+' : ''}${c.devicesColumn} ${negate ? 'NOT IN' : 'IN'} (SELECT ${c.deviceColumn} FROM ${c.table} ${c.alias}${rest})`;
const having = (b: Binder, c: Child, where?: string) => childTest(b, c, false, where);
const lacking = (b: Binder, c: Child, where?: string) => childTest(b, c, true, where);

/** SQLite's NOCASE folds ASCII letters only; counting distinct values must fold the same way. */
const asciiFold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Devices with a link to every listed name. A dictionary name is unique under NOCASE, so a device has at most one
 * link per folded name and two spellings of one name in the list count once.
 */
function hasAll(b: Binder, names: string, values: string[], c: Child): string {
  const wanted = new Set(values.map(asciiFold)).size;
  const picked = `${c.alias}.name_id IN (SELECT id FROM ${names} WHERE name IN ${b.list(values)})`;
  if (b.childForm === 'probe')
    return `(SELECT count(*) FROM ${c.table} ${c.alias} WHERE ${c.deviceColumn} = ${c.devicesColumn} AND ${picked}) = ${b.bind(wanted)}`;
  return inSet(c, false, ` WHERE ${picked} GROUP BY ${c.deviceColumn} HAVING count(*) = ${b.bind(wanted)}`);
}

/** Link rows whose dictionary name satisfies `test` (an expression over the dictionary's `name`). */
const named = (c: Child, names: string, test: string) =>
  `${c.alias}.name_id IN (SELECT id FROM ${names} WHERE ${test})`;
const nameLike = (b: Binder, leaf: Leaf) =>
  `name LIKE ${b.bind(`%${escapeLike(text(leaf))}%`)} ${LIKE_ESCAPE}`;

export function compileTags(leaf: Leaf, b: Binder): string {
  const tagNamed = (test: string) => named(TAG_LINKS, 'tag_names', test);
  switch (leaf.operator) {
    case 'hasAny':
      return having(b, TAG_LINKS, tagNamed(`name IN ${b.list(textList(leaf))}`));
    case 'hasAll':
      return hasAll(b, 'tag_names', textList(leaf), TAG_LINKS);
    case 'isEmpty':
      return lacking(b, TAG_LINKS);
    case 'isNotEmpty':
      return having(b, TAG_LINKS);
    default: // contains
      return having(b, TAG_LINKS, tagNamed(nameLike(b, leaf)));
  }
}

export function compileSoftware(leaf: Leaf, b: Binder, installed: boolean): string {
  const softwareNamed = (test: string) => named(SOFTWARE_LINKS, 'software_names', test);
  if (!installed) return lacking(b, SOFTWARE_LINKS, softwareNamed(nameLike(b, leaf))); // notInstalled contains
  switch (leaf.operator) {
    case 'contains':
      return having(b, SOFTWARE_LINKS, softwareNamed(nameLike(b, leaf)));
    case 'notContains':
      return lacking(b, SOFTWARE_LINKS, softwareNamed(nameLike(b, leaf)));
    case 'equals':
      return having(b, SOFTWARE_LINKS, softwareNamed(`name = ${b.bind(text(leaf))}`));
    case 'hasAll':
      return hasAll(b, 'software_names', textList(leaf), SOFTWARE_LINKS);
    default: // in, hasAny: at least one of the names is installed
      return having(b, SOFTWARE_LINKS, softwareNamed(`name IN ${b.list(textList(leaf))}`));
  }
}

export function compileHierarchy(e: Expr, leaf: Leaf, b: Binder): string {
  if (leaf.operator === 'equals') return `${e(b)} = ${b.bind(text(leaf))}`;
  return `${e(b)} IN ${b.list(textList(leaf))}`;
}

export function compileGroup(leaf: Leaf, b: Binder): string {
  if (leaf.operator === 'equals') return having(b, MEMBERS, `m.group_id = ${b.bind(text(leaf))}`);
  return having(b, MEMBERS, `m.group_id IN ${b.list(textList(leaf))}`);
}
