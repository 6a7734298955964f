// The project's folder, found from this file whether it runs as TypeScript (shared/platform/) or
// compiled (dist/shared/platform/): the nearest folder above holding the project's package.json. Files
// that are not code (package.json, providers.json) are read from there, so the build copies none of them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function find(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'jogatina') {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error('the project’s package.json was not found above this file');
  }
}

export const PROJECT_ROOT = find();

/** A file of the project, by its path from the project's folder. */
export const projectFile = (...parts: string[]) => path.join(PROJECT_ROOT, ...parts);
