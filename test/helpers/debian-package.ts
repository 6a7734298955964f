// A program a test needs from Debian (Chromium, PgBouncer): found on the PATH, or installed from Debian's
// package when missing (the test machines run as root with apt); when it cannot be had, the reason, with
// which the caller skips.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

function which(name: string): string | null {
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The first of `programs` found (names or absolute paths), installing `pkg` first when none is. */
export async function debianProgramOrReason(
  pkg: string,
  programs: string[],
): Promise<{ path: string } | { reason: string }> {
  const found = () => programs.map(which).find((path) => path !== null) ?? null;
  const path = found();
  if (path) return { path };
  if (process.getuid?.() !== 0 || !which('apt-get')) {
    return { reason: `no ${pkg}, and no root apt-get to install Debian’s ${pkg} package` };
  }
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    await run('apt-get', ['update'], { env, timeout: 240_000 });
    await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, timeout: 480_000 });
  } catch (error) {
    return { reason: `installing Debian’s ${pkg} package failed: ${(error as Error).message.split('\n')[0]}` };
  }
  const installed = found();
  return installed ? { path: installed } : { reason: `${pkg} was installed but its program was not found` };
}
