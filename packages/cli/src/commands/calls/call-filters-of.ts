import type { CallStatus } from '@weft/protocol';
import type { FilterValue } from './call-filter-values.js';
import type { CallFilters } from './calls-options.js';

/** The filter flags `weft calls` declares; `weft calls export` declares some of them. */
export interface CallFilterFlags {
  op: string[];
  status: CallStatus[];
  text: string;
  attr: [string, FilterValue][];
  session: string;
  user: string;
  tag: string[];
  feedback: { name: string; value?: FilterValue };
  since: number;
  until: number;
  roots: boolean;
}

/** The call query's filters for the filter flags given (a repeated flag with one value is that value). */
export function callFiltersOf(flags: Partial<CallFilterFlags>): CallFilters {
  return {
    ...(flags.op ? { opName: flags.op.length === 1 ? flags.op[0]! : flags.op } : {}),
    ...(flags.status ? { status: flags.status.length === 1 ? flags.status[0]! : flags.status } : {}),
    ...(flags.text ? { text: flags.text } : {}),
    ...(flags.attr ? { attributes: Object.fromEntries(flags.attr) } : {}),
    ...(flags.session ? { sessionId: flags.session } : {}),
    ...(flags.user ? { userId: flags.user } : {}),
    ...(flags.tag ? { tag: flags.tag.length === 1 ? flags.tag[0]! : flags.tag } : {}),
    ...(flags.feedback ? { feedback: flags.feedback } : {}),
    ...(flags.since === undefined ? {} : { startedAfter: flags.since }),
    ...(flags.until === undefined ? {} : { startedBefore: flags.until }),
    ...(flags.roots ? { parentId: null } : {}),
  };
}
