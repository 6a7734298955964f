// Prints measured rows as a fixed-width table.
import type { LoadResult } from './load.js';

export interface Row {
  name: string;
  result: LoadResult;
}

export function printTable(title: string, rows: Row[], baseline: string): void {
  const base = rows.find((row) => row.name === baseline)?.result.requestsPerSecond ?? 0;
  const header = ['server', 'req/s', 'vs baseline', 'p50 ms', 'p95 ms', 'p99 ms', 'requests', 'errors'];
  const lines = rows.map((row) => [
    row.name,
    row.result.requestsPerSecond.toFixed(0),
    base ? `${(row.result.requestsPerSecond / base).toFixed(2)}x` : '-',
    row.result.p50.toFixed(2),
    row.result.p95.toFixed(2),
    row.result.p99.toFixed(2),
    String(row.result.requests),
    String(row.result.errors),
  ]);
  printCells(title, header, lines);
}

/** Prints a title and a table of cells, each column as wide as its widest cell. */
export function printCells(title: string, header: string[], lines: string[][]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${title}\n`);
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
  console.log('');
}
