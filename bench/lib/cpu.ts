// CPU time a process has used (user + system), read from /proc: what a server spends per request, beside
// the rates the load generator sees. Null where /proc is missing (not Linux).
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU time the whole machine has spent busy (every core: user, nice, system, irq, softirq, steal), from
 * /proc/stat: what a request costs all processes together (PostgreSQL's backends included). Null where
 * /proc is missing.
 */
export function machineCpuMs(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return ((user + nice + system + irq + softirq + (steal || 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
