// Measures several servers (or routes) in interleaved rounds (A B C, A B C, ...) and keeps each one's median
// round, so a slow moment of a shared machine does not land on one of them only.
import { measure, warmUp, type LoadOptions, type LoadResult } from './load.js';
import type { Row } from './table.js';

export interface Contender {
  name: string;
  load: LoadOptions;
}

export interface CompareOptions {
  /** The unmeasured load each contender gets first. */
  warmUpSeconds?: number;
  /** One measured round of a contender (a scenario that reads more around it, such as CPU, passes its own). */
  run?: (contender: Contender) => Promise<LoadResult>;
}

export async function compareServers(
  contenders: Contender[],
  rounds: number,
  { warmUpSeconds = 2, run = (contender) => measure(contender.load) }: CompareOptions = {},
): Promise<Row[]> {
  for (const contender of contenders) await warmUp(contender.load, warmUpSeconds);
  const results = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) results.get(contender.name)!.push(await run(contender));
  }
  return contenders.map(({ name }) => {
    const sorted = [...results.get(name)!].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return { name, result: sorted[Math.floor(sorted.length / 2)] };
  });
}
