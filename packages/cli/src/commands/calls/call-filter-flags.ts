import type { Command } from 'commander';
import { parseNonEmpty } from '../flag-values.js';
import type { CallFilterFlags } from './call-filters-of.js';
import {
  collect,
  parseFeedbackFilter,
  parseKeyValue,
  parseStatus,
  parseTimePoint,
} from './call-filter-values.js';

/** How a filter flag's help is worded: calls it keeps, or whole traces it matches (`weft calls delete`). */
export type FilterWording = 'calls' | 'traces';

/** One filter flag: its commander spelling, its help per wording, its value parser. */
interface FilterFlag {
  flags: string;
  help: string;
  /** The help where whole traces are matched by any of their calls; `help` when the words are the same. */
  traceHelp?: string;
  /** Method syntax: each parser types its own `previous` (a collected array, or none). */
  parse?(text: string, previous: unknown): unknown;
}

/**
 * The filter flags of `weft calls`, `weft calls export` and `weft calls
 * delete`, in the order help lists them: one declaration each, so the three
 * commands spell, parse and describe a filter the same way.
 */
const CALL_FILTER_FLAGS: { readonly [K in keyof CallFilterFlags]: FilterFlag } = {
  op: {
    flags: '--op <name>',
    help: 'only calls of this op (repeat for several)',
    parse: collect(parseNonEmpty),
  },
  status: {
    flags: '--status <status>',
    help: 'success, error or running (repeat for several)',
    parse: collect(parseStatus),
  },
  text: {
    flags: '--text <words>',
    help: 'full-text search over names, inputs and outputs (every word must occur)',
    parse: parseNonEmpty,
  },
  attr: {
    flags: '--attr <key=value>',
    help: 'attribute equals value; true/false and numbers are typed, "quote" for text (repeatable)',
    traceHelp:
      'traces with a call whose attribute equals value; true/false and numbers are typed, "quote" for text (repeatable)',
    parse: collect(parseKeyValue),
  },
  session: {
    flags: '--session <id>',
    help: 'only calls of this session',
    traceHelp: 'traces of this session',
    parse: parseNonEmpty,
  },
  user: {
    flags: '--user <id>',
    help: "only calls whose 'user.id' attribute is this",
    traceHelp: "traces with a call whose 'user.id' attribute is this",
    parse: parseNonEmpty,
  },
  tag: {
    flags: '--tag <tag>',
    help: 'only calls tagged so (repeat: every tag)',
    parse: collect(parseNonEmpty),
  },
  feedback: {
    flags: '--feedback <name[=value]>',
    help: 'only calls with feedback of this name (and value)',
    parse: parseFeedbackFilter,
  },
  since: {
    flags: '--since <time>',
    help: 'started at or after: ISO time, epoch ms, or a duration ago (30m, 6h, 7d)',
    traceHelp: 'traces with a call started at or after: ISO time, epoch ms, or a duration ago (30m, 6h, 7d)',
    parse: parseTimePoint,
  },
  until: {
    flags: '--until <time>',
    help: 'started before (same forms as --since)',
    traceHelp: 'traces with a call started before (same forms as --since)',
    parse: parseTimePoint,
  },
  roots: { flags: '--roots', help: 'only root calls (one per trace)' },
};

/**
 * Declares the filter flags `names` on `command`, in the table's order,
 * with the help of `wording`.
 */
export function addCallFilterFlags(
  command: Command,
  names: readonly (keyof CallFilterFlags)[],
  wording: FilterWording = 'calls',
): Command {
  for (const [name, flag] of Object.entries(CALL_FILTER_FLAGS) as [keyof CallFilterFlags, FilterFlag][]) {
    if (!names.includes(name)) continue;
    const help = wording === 'traces' ? (flag.traceHelp ?? flag.help) : flag.help;
    if (flag.parse === undefined) command.option(flag.flags, help);
    else command.option<unknown>(flag.flags, help, flag.parse);
  }
  return command;
}
