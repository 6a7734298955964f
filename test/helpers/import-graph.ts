// The project's import graph, read from its sources as text: every relative `import`/`export ... from`
// and `import()` of the processes' code (api, workers, shared, db, scripts), type-only imports included
// (a circle of types is still a circle a reader must untangle). Tests and benchmarks import everything
// and are left out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const CODE_FOLDERS = ['api', 'workers', 'shared', 'db', 'scripts'];
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** file -> the project files it imports, as paths relative to `root`. */
export function importGraph(root: string): Map<string, Set<string>> {
  const files = CODE_FOLDERS.flatMap((folder) => sources(path.join(root, folder)));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      let target = path.resolve(path.dirname(file), match[1] ?? match[2]).replace(/\.js$/, '.ts');
      try {
        if (statSync(target).isDirectory()) target = path.join(target, 'index.ts');
      } catch {
        // A name that is not a file (a JSON import, a URL): not an edge of the graph.
      }
      targets.add(path.relative(root, target));
    }
    graph.set(path.relative(root, file), targets);
  }
  return graph;
}

/** The folder a file belongs to for the folder rule: a domain, a platform part, or a process's root. */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'shared' && parts[1] === 'platform')
    return parts.length > 3 ? parts.slice(0, 3).join('/') : 'shared/platform';
  if (parts[0] === 'shared') return parts.length > 2 ? parts.slice(0, 2).join('/') : 'shared';
  return parts[0];
}

/** The strongly connected components of more than one node (Tarjan): each is a circle. */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The folder graph: an edge where a file of one folder imports a file of another. */
export function folderGraph(graph: Map<string, Set<string>>): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Set());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) folders.get(from)!.add(to);
    }
  }
  return folders;
}

/** Every file that imports `target`'s folder from `from`'s folder, to name the edges of a loop. */
export function edgesBetween(graph: Map<string, Set<string>>, from: string, to: string): string[] {
  return [...graph].flatMap(([file, targets]) =>
    folderOf(file) === from ? [...targets].filter((t) => folderOf(t) === to).map((t) => `${file} -> ${t}`) : [],
  );
}
