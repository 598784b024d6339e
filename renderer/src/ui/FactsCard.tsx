import type { ComponentProps } from 'react';
import { Card, Facts } from './basics';

/** One label/value row of a facts list: the label, the value, and optionally the value's test id. */
export type FactRow = ComponentProps<typeof Facts>['rows'][number];

/**
 * A card that is one label/value list (a device's hardware, a webhook's settings), so a screen of such cards
 * reads as one line a card, its rows built beside it.
 */
export function FactsCard({
  rows,
  ...card
}: Omit<ComponentProps<typeof Card>, 'children' | 'actions'> & { rows: FactRow[] }) {
  return (
    <Card {...card}>
      <Facts rows={rows} />
    </Card>
  );
}
