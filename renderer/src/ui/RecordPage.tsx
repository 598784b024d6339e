import type { ComponentProps, ReactNode } from 'react';
import { capitalize } from '../lib/format';
import type { IconName } from './Icon';
import { PageHeader } from './layout';
import { DetailPlaceholder, type Forbidden } from './states';

// The two states of a detail page (/devices/:id, /webhooks/:id, /approvals/:id) drawn from one description of it:
// RecordPlaceholder until the record is there, RecordFrame around it once it is.

/** A detail page: the record's name ("device"), its icon, the page's classes and the way back. */
export interface RecordPage {
  noun: string;
  /** The header while nothing is loaded; the noun, capitalized, unless given. */
  title?: string;
  icon: IconName;
  className: string;
  back: { to: string; label: string };
  /** The page's test id once the record is shown; `<noun>-detail` unless given. */
  testId?: string;
}

/** A detail page with its record: the page's classes and test id, the header with the way back, then the rest. */
export function RecordFrame({
  page,
  children,
  ...header
}: Omit<ComponentProps<typeof PageHeader>, 'back'> & { page: RecordPage; children: ReactNode }) {
  return (
    <div className={`page ${page.className}`} data-testid={page.testId ?? `${page.noun}-detail`}>
      <PageHeader {...header} back={page.back} />
      {children}
    </div>
  );
}

/**
 * DetailPlaceholder for one record, its texts said the one way: "Loading the device…", "This device is not
 * available to you" (out of the caller's organizations unless `forbidden` says otherwise), "No such device"
 * (test id `device-not-found`) with `notFound` under it.
 */
export function RecordPlaceholder({
  page,
  of,
  notFound,
  forbidden = 'It belongs to an organization outside your access.',
}: {
  page: RecordPage;
  of: { error: unknown; reload: () => void };
  notFound: ReactNode;
  forbidden?: Forbidden['text'];
}) {
  const { noun, icon, className, back } = page;
  return (
    <DetailPlaceholder
      className={className}
      title={page.title ?? capitalize(noun)}
      back={back}
      of={of}
      loading={`Loading the ${noun}…`}
      forbidden={{ title: `This ${noun} is not available to you`, text: forbidden }}
      notFound={{ icon, title: `No such ${noun}`, testId: `${noun}-not-found`, text: notFound }}
    />
  );
}
