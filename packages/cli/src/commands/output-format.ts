import { stringify } from 'csv-stringify/sync';
import { type Command, Option } from 'commander';
import type { CliIo } from '../io/index.js';
import { UsageError } from '../errors/index.js';
import { formatPlainTable } from '../render/index.js';

/** How a command prints what it read: a table for people, CSV for spreadsheets, JSON for programs. */
export type OutputFormat = 'table' | 'csv' | 'json';

/** The flags that choose it. */
export interface OutputFlags {
  json: boolean;
  format: OutputFormat;
}

/** Declares `--json`, and `--format <table|csv|json>` on commands that print a table. */
export function addOutputFlags(command: Command, { tabular }: { tabular: boolean }): Command {
  command.option('--json', 'print JSON instead of text (shape: docs/cli.md)');
  if (tabular) {
    command.addOption(
      new Option('--format <format>', 'table, csv or json (default: table)').choices([
        'table',
        'csv',
        'json',
      ]),
    );
  }
  return command;
}

/** `--json` is `--format json`; asking for both JSON and another format is a usage error. */
export function resolveOutput(flags: Partial<OutputFlags>): OutputFormat {
  if (flags.json === true) {
    if (flags.format !== undefined && flags.format !== 'json') {
      throw new UsageError(`--json and --format ${flags.format} ask for two formats: pick one.`);
    }
    return 'json';
  }
  return flags.format ?? 'table';
}

/** A column of a table: its title, the cell as people read it, and the value CSV carries. */
export interface Column<T> {
  title: string;
  cell(row: T): string;
  /** The CSV value (unformatted numbers, full times); the cell when absent. */
  raw?(row: T): string | number | boolean | null | undefined;
}

/** Writes rows in the chosen format: the table, CSV with a header line, or `json` (the documented shape). */
export function writeRows<T>(
  io: CliIo,
  format: OutputFormat,
  columns: readonly Column<T>[],
  rows: readonly T[],
  json: () => unknown,
): void {
  if (format === 'json') {
    io.stdout.write(`${JSON.stringify(json(), null, 2)}\n`);
  } else if (format === 'csv') {
    const records = rows.map((row) =>
      columns.map((c) => (c.raw === undefined ? c.cell(row) : (c.raw(row) ?? ''))),
    );
    io.stdout.write(stringify([columns.map((c) => c.title), ...records]));
  } else {
    io.stdout.write(
      `${formatPlainTable(
        columns.map((c) => c.title),
        rows.map((row) => columns.map((c) => c.cell(row))),
      )}\n`,
    );
  }
}
