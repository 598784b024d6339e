import type { ComponentProps, ComponentType } from 'react';
import { Card, Facts } from './basics';

/** One label/value row of a facts list: the label, the value, and optionally the value's test id. */
export type FactRow = ComponentProps<typeof Facts>['rows'][number];

/**
 * A card that is one label/value list (a device's hardware, a request's machine and user), so a screen of such
 * cards reads as one line a card, its rows built beside it. A row may be left out (null or false) where a fact
 * does not apply; `as` swaps the kit's Facts for a list of another look (values that wrap).
 */
export function FactsCard({
  rows,
  as: List = Facts,
  ...card
}: Omit<ComponentProps<typeof Card>, 'children' | 'actions'> & {
  rows: Array<FactRow | null | false>;
  as?: ComponentType<{ rows: FactRow[] }>;
}) {
  return (
    <Card {...card}>
      <List rows={rows.filter((row): row is FactRow => Boolean(row))} />
    </Card>
  );
}
