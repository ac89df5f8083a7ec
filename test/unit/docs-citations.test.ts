import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Comments cite the rules they rely on as sections of docs/ (syntax: docs/README.md §Citing a section from code).
 * This checks every comment of the repository's code: each cited file exists, each cited section is one of its
 * headings, headings are unique per file, and nothing points outside the repository.
 */

const ROOT = join(__dirname, '..', '..');
const SCANNED = ['src', 'scripts', 'cluster', 'test', 'k8s'];
const HASH_COMMENTED = /\.(sh|cfg|ya?ml|env|ini)$/;

interface Citation {
  file: string;
  sections: string[];
}

/** One comment line's citations, and how many section marks no citation accounts for. */
function parseCitations(line: string): { citations: Citation[]; strayMarks: number } {
  const text = line.replace(/\*\/\s*$/, '');
  const citations: Citation[] = [];
  const consumed: [number, number][] = [];
  const fileRe = /(?<![\w/.-])docs\/([\w-]+\.md)/g;
  for (let m = fileRe.exec(text); m; m = fileRe.exec(text)) {
    const citation: Citation = { file: m[1], sections: [] };
    let at = m.index + m[0].length;
    let lead = /^ §/;
    for (;;) {
      const rest = text.slice(at);
      const mark = lead.exec(rest);
      if (!mark) break;
      const name = sectionName(rest.slice(mark[0].length));
      citation.sections.push(name.trim());
      at += mark[0].length + name.length;
      lead = /^, §/;
    }
    consumed.push([m.index, at]);
    citations.push(citation);
    fileRe.lastIndex = at;
  }
  let strayMarks = 0;
  for (let i = text.indexOf('§'); i !== -1; i = text.indexOf('§', i + 1)) {
    if (!consumed.some(([from, to]) => i >= from && i < to)) strayMarks++;
  }
  return { citations, strayMarks };
}

/** A section name runs to the first `,` `;` `:` `(` `)`, a `.` that ends a sentence, or the end of the line. */
function sectionName(rest: string): string {
  const end = /[,;:()]|\.(\s|$)/.exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

/** Every comment of a TypeScript file, as text, with its line number. */
function tsComments(path: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, { line: number; text: string }>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.set(r.pos, { line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

/** `#` comments of shell, YAML, ini and config files. */
function hashComments(text: string): { line: number; text: string }[] {
  return text.split('\n').flatMap((line, i) => {
    const m = /(^|\s)#(.*)$/.exec(line);
    return m ? [{ line: i + 1, text: m[2] }] : [];
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Each docs/ file's headings, outside fenced code. */
function headingsOf(file: string): string[] {
  let fenced = false;
  const headings: string[] = [];
  for (const line of readFileSync(join(ROOT, 'docs', file), 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) headings.push(m[1]);
  }
  return headings;
}

t.test('a citation names its file and each section up to the punctuation that ends it', async (t) => {
  t.same(parseCitations(' * (docs/frameworks.md §Questions). */').citations, [{ file: 'frameworks.md', sections: ['Questions'] }]);
  t.same(parseCitations('// (docs/tenders.md §Lots, §Minimal step; docs/platform.md §Time and dates)').citations, [
    { file: 'tenders.md', sections: ['Lots', 'Minimal step'] },
    { file: 'platform.md', sections: ['Time and dates'] },
  ]);
  t.same(parseCitations("(docs/frameworks.md §Framework feeds: `listing_name` is the parent route's)").citations, [
    { file: 'frameworks.md', sections: ['Framework feeds'] },
  ]);
  t.same(parseCitations('# the queue (docs/architecture.md §Automatic transitions).').citations, [
    { file: 'architecture.md', sections: ['Automatic transitions'] },
  ]);
  t.same(parseCitations('see docs/masking.md for the tables').citations, [{ file: 'masking.md', sections: [] }]);
  t.same(parseCitations('upstream docs/source/x/y.http and openprocurement/docs/z.md').citations, []);
  t.equal(parseCitations('(notes §2.3) and (docs/tenders.md §Lots)').strayMarks, 1);
});

t.test('every docs/ file has unique headings', async (t) => {
  for (const file of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))) {
    const headings = headingsOf(file);
    const twice = headings.filter((h, i) => headings.indexOf(h) !== i);
    t.same(twice, [], `docs/${file}: headings named twice`);
  }
});

t.test('every comment cites existing docs/ sections and nothing outside the repository', async (t) => {
  const headings = new Map<string, string[] | null>();
  const problems: string[] = [];
  let cited = 0;
  for (const path of SCANNED.flatMap((dir) => filesUnder(join(ROOT, dir)))) {
    const name = relative(ROOT, path);
    const isTs = /\.(ts|js|mjs|cjs)$/.test(path);
    if (!isTs && !HASH_COMMENTED.test(path)) continue;
    const text = readFileSync(path, 'utf8');
    for (const comment of isTs ? tsComments(path, text) : hashComments(text)) {
      comment.text.split('\n').forEach((line, i) => {
        const where = `${name}:${comment.line + i}`;
        if (/\bnotes\/[\w-]+\.md|\bnotes §|\.\.\/shared|\b(design|style)\.md\b/.test(line)) {
          problems.push(`${where}: cites a file outside the repository: ${line.trim()}`);
        }
        const { citations, strayMarks } = parseCitations(line);
        if (strayMarks > 0) problems.push(`${where}: § without a docs/ file: ${line.trim()}`);
        for (const { file, sections } of citations) {
          cited++;
          if (!headings.has(file)) headings.set(file, existsSync(join(ROOT, 'docs', file)) ? headingsOf(file) : null);
          const known = headings.get(file);
          if (!known) {
            problems.push(`${where}: docs/${file} does not exist`);
            continue;
          }
          for (const section of sections) {
            if (!known.includes(section)) problems.push(`${where}: docs/${file} has no section "${section}"`);
          }
        }
      });
    }
  }
  t.same(problems, [], 'comments cite only what docs/ holds');
  t.ok(cited > 0, `${cited} citations checked`);
});
