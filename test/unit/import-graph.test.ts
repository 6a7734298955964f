// The house's rules, read from the sources so a new file is held to them without being listed: no import
// circle between files, no loop between folders (domains import the platform and each other downwards
// only), the platform imports no domain, and each process's code stays its own (shared never imports api,
// workers, db or scripts; the web process never imports the worker's, nor the reverse).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { circles, edgesBetween, folderGraph, folderOf, importGraph } from '../helpers/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the import graph', () => {
  const graph = importGraph(ROOT);
  const folders = folderGraph(graph);

  it('reads the code of every process', () => {
    const names = [...graph.keys()];
    expect(names.length).to.be.greaterThan(250);
    for (const file of ['api/app.ts', 'workers/index.ts', 'shared/platform/errors.ts', 'db/migrate.ts']) {
      expect(names).to.include(file);
    }
    expect(graph.get('api/app.ts')!.size).to.be.greaterThan(10);
  });

  it('has no circle between files', () => {
    expect(circles(graph)).to.deep.equal([]);
  });

  it('has no loop between folders', () => {
    const loops = circles(folders).map((loop) =>
      loop.flatMap((from) => loop.flatMap((to) => (from === to ? [] : edgesBetween(graph, from, to)))),
    );
    expect(loops).to.deep.equal([]);
  });

  it('keeps the platform free of domains, and shared free of the processes', () => {
    const wrong = [...graph].flatMap(([file, targets]) =>
      [...targets]
        .filter((target) => {
          const from = folderOf(file);
          const to = folderOf(target);
          if (from.startsWith('shared/platform')) return !to.startsWith('shared/platform');
          if (from.startsWith('shared')) return !to.startsWith('shared');
          if (from === 'api') return to === 'workers' || to === 'scripts';
          if (from === 'workers') return to === 'api' || to === 'scripts';
          return false;
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('keeps presenters pure: no presenter imports knex or the database layer', () => {
    const presenters = [...graph.keys()].filter((file) => /(^|\/)presenters?\.ts$|-presenters?\.ts$/.test(file));
    expect(presenters.length).to.be.greaterThan(4);
    const querying = presenters.filter(
      (file) =>
        /from ['"]knex['"]/.test(readFileSync(path.join(ROOT, file), 'utf8')) ||
        [...graph.get(file)!].some((target) => target.startsWith('shared/platform/db/')),
    );
    expect(querying).to.deep.equal([]);
  });

  it('finds a circle and a loop when there is one', () => {
    const sample = new Map([
      ['shared/a/x.ts', new Set(['shared/b/y.ts'])],
      ['shared/b/y.ts', new Set(['shared/a/z.ts'])],
      ['shared/a/z.ts', new Set<string>()],
      ['shared/c/p.ts', new Set(['shared/c/q.ts'])],
      ['shared/c/q.ts', new Set(['shared/c/p.ts'])],
    ]);
    expect(circles(sample)).to.deep.equal([['shared/c/p.ts', 'shared/c/q.ts']]);
    expect(circles(folderGraph(sample))).to.deep.equal([['shared/a', 'shared/b']]);
  });
});
