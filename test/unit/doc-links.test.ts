// Every relative link of the README, the changelog, docs/ and bench/README.md points at a file of the
// repository, and at a heading of it when it names one (`docs/operations.md#configuration`), anchors made
// the way GitHub makes them. A page renamed or a heading reworded fails here, not in a reader's browser.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../shared/platform/project-root.js';

const PAGES = [
  'README.md',
  'CHANGELOG.md',
  'bench/README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`... as on GitHub). */
function anchorsIn(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative links of a page, outside code blocks and code spans. */
function linksIn(page: string): string[] {
  const text = readFileSync(path.join(PROJECT_ROOT, page), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('documentation links', () => {
  it('finds the pages and their links', () => {
    expect(PAGES).to.include.members(['README.md', 'docs/api-notes.md', 'docs/operations.md', 'docs/architecture.md']);
    expect(linksIn('README.md').length).to.be.greaterThan(4);
  });

  it('makes anchors as GitHub does', () => {
    expect(anchorOf('The path of a request')).to.equal('the-path-of-a-request');
    expect(anchorOf("The catalog's copy")).to.equal('the-catalogs-copy');
    expect(anchorOf('`stack`: raw, Koa')).to.equal('stack-raw-koa');
  });

  it('speak of the product as it is: no session or issue numbers (how a figure moved is in the changelog)', () => {
    const diary = PAGES.filter((page) => page !== 'CHANGELOG.md').flatMap((page) =>
      [
        ...readFileSync(path.join(PROJECT_ROOT, page), 'utf8').matchAll(
          /\b(?:(?<!play )[Ss]ession|[Ii]ssues?) #?\d+\b/g,
        ),
      ].map((match) => `${page}: ${match[0]}`),
    );
    expect(diary).to.deep.equal([]);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link reaches a file, and a heading when it names one`, () => {
      const broken = linksIn(page).filter((target) => {
        const [file, anchor] = target.split('#');
        const resolved = file
          ? path.resolve(path.dirname(path.join(PROJECT_ROOT, page)), file)
          : path.join(PROJECT_ROOT, page);
        if (!resolved.startsWith(PROJECT_ROOT) || !existsSync(resolved)) return true;
        if (anchor === undefined) return false;
        return !statSync(resolved).isFile() || !anchorsIn(resolved).has(anchor);
      });
      expect(broken).to.deep.equal([]);
    });
  }
});
