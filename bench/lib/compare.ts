// Measures several servers in interleaved rounds (A B C, A B C, ...) and keeps each one's median round,
// so a slow moment of a shared machine does not land on one server only.
import { measure, warmUp, type LoadOptions, type LoadResult } from './load.js';
import type { Row } from './table.js';

export interface Contender {
  name: string;
  load: LoadOptions;
}

export async function compareServers(contenders: Contender[], rounds: number): Promise<Row[]> {
  for (const contender of contenders) await warmUp(contender.load);
  const results = new Map<string, LoadResult[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) results.get(contender.name)!.push(await measure(contender.load));
  }
  return contenders.map(({ name }) => {
    const sorted = [...results.get(name)!].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    return { name, result: sorted[Math.floor(sorted.length / 2)] };
  });
}
