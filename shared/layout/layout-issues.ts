// Validation issues of a layout document: the spec's codes, a message, the path to the offending part and,
// where it applies, the block or element type. At most 20 are reported.
import { LIMITS } from './layout-limits.js';

export type IssueCode =
  | 'shape'
  | 'duplicate_id'
  | 'spans'
  | 'too_many_blocks'
  | 'too_many_of_type'
  | 'too_many_elements'
  | 'out_of_bounds'
  | 'required_missing'
  | 'required_hidden'
  | 'too_large';

export type Path = Array<string | number>;

export interface LayoutIssue {
  code: IssueCode;
  message: string;
  path?: Path;
  type?: string;
}

export class IssueList {
  readonly issues: LayoutIssue[] = [];

  add(code: IssueCode, message: string, path?: Path, type?: string): void {
    if (this.issues.length >= LIMITS.issues) return;
    const issue: LayoutIssue = { code, message };
    if (path) issue.path = path;
    if (type) issue.type = type;
    this.issues.push(issue);
  }

  get full(): boolean {
    return this.issues.length >= LIMITS.issues;
  }
}
