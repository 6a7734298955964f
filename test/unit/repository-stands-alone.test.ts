// A clone must work with nothing beside it: no file of the project names a path that climbs out of the
// repository's root (`../` past the top), whether code reads it, a script runs it or the README sends a
// reader there. Every text file is walked, so a new folder or file is covered without being listed.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Not the project's files: installed, generated, or the database and media of a local run. */
const SKIPPED = new Set(['.git', 'node_modules', '.data', 'dist', 'coverage']);
const BINARY = /\.(png|jpe?g|gif|webp|avif|ico|pdf|woff2?|wasm|bin)$/i;
/** A relative path that starts by climbing: `../x`, `../../x`, also inside quotes, links and URLs. */
const CLIMB = /(?<![\w.])(?:\.\.\/)+[^\s'"`)<>\],]*/g;

function projectFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return projectFiles(full);
    return entry.isFile() && !BINARY.test(entry.name) ? [full] : [];
  });
}

/** Where a climbing path found in `file` points: relative to its folder, as imports and URLs are. */
function escapes(file: string, relative: string): boolean {
  const target = path.resolve(path.dirname(file), relative);
  return target !== ROOT && !target.startsWith(ROOT + path.sep);
}

/** Every `file: path` that names a place outside the root. */
function pathsOutside(files: string[]): string[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(CLIMB)]
      .filter(([found]) => escapes(file, found))
      .map(([found]) => `${path.relative(ROOT, file)}: ${found}`),
  );
}

describe('the repository stands alone', () => {
  it('walks the project: code, tests, scripts, benchmarks, the README and package.json', () => {
    const names = projectFiles(ROOT).map((file) => path.relative(ROOT, file));
    for (const expected of ['README.md', 'package.json', '.ci/run', 'api/app.ts', 'bench/run.ts', 'scripts/op.ts']) {
      expect(names).to.include(expected);
    }
  });

  it('no file names a path outside the repository', () => {
    expect(pathsOutside(projectFiles(ROOT))).to.deep.equal([]);
  });

  it('catches a climb past the top, and lets a climb that stays inside pass', () => {
    // Built from parts, so this file does not name the paths it tests.
    const up = (times: number, rest: string) => '../'.repeat(times) + rest;
    const inTest = path.join(ROOT, 'test/api/example.test.ts');
    expect(escapes(inTest, up(3, 'shared/spec/routes.txt'))).to.equal(true);
    expect(escapes(path.join(ROOT, 'README.md'), up(1, 'shared/DECISIONS.md'))).to.equal(true);
    expect(escapes(inTest, up(2, 'shared/errors.js'))).to.equal(false);
    expect(escapes(inTest, up(1, 'fixtures/spec-routes.txt'))).to.equal(false);
    const sample = `readFileSync(new URL('${up(3, 'a/b.txt')}', import.meta.url)) see \`${up(1, 'x')}\` [a](${up(2, 'y')})`;
    expect([...sample.matchAll(CLIMB)].map(([found]) => found)).to.deep.equal([
      up(3, 'a/b.txt'),
      up(1, 'x'),
      up(2, 'y'),
    ]);
  });
});
