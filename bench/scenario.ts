import type { Row } from './lib/table.js';

export interface ScenarioContext {
  database: { url: string; where: string };
  connections: number;
  durationSeconds: number;
  /** Interleaved rounds per server; each server's median round is reported. */
  rounds: number;
}

export interface Scenario {
  description: string;
  /** The least share of the baseline's rate the subject must reach. */
  target: number;
  /** The most the subject's p50 may exceed the baseline's, in ms, when the scenario sets one. */
  maxAddedMs?: number;
  /** The most the subject's median may be, in ms, when the scenario sets one. */
  p50TargetMs?: number;
  /** The most the subject's p99 may be, when the scenario sets one. */
  p99TargetMs?: number;
  /** The most every row's p95 may be, when the scenario sets one. */
  p95TargetMs?: number;
  /** How the scenario drives load, when it does not follow --connections, --duration and --rounds. */
  setup?: string;
  /**
   * `problems`: what else the scenario found wrong (a query plan, say); any fails the run. `summary`: one
   * line the runner prints last, after its target line.
   */
  run(
    context: ScenarioContext,
  ): Promise<{ rows: Row[]; baseline: string; subject: string; problems?: string[]; summary?: string }>;
}
