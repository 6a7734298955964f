// What stops a command-line start (npm start, the release step, operator commands), said in one line: what
// failed and what to do. Printed as it is, never with a stack.

export class StartFailure extends Error {}

/** The data folder cannot be made or written: the one sentence every start that needs it says. */
export function dataFolderProblem(dir: string, code: string | undefined): string {
  return `the data folder ${dir} cannot be created or written (${code}): set DATA_DIR to a folder you may write, or fix its permissions`;
}
