import type { IgnoreRules } from './ignoreRules';

/** Why the chat's tools leave a file out: Git's own folder, the exclude settings, a `.gitignore` file. */
export type HiddenReason = 'git' | 'excluded' | 'ignored';

/** A `.git` folder in any case (on a case-insensitive disk `.GIT` is the same folder). */
const GIT_FOLDER = /(^|\/)\.git(\/|$)/i;

/** What the workspace hides from the model, decided on a path relative to its workspace folder. */
export class HiddenRules {
  constructor(
    private readonly excluded: (relativePath: string) => boolean = () => false,
    /** Each workspace folder's `.gitignore` rules, by the folder's index. */
    private readonly ignores: ReadonlyMap<number, IgnoreRules> = new Map(),
  ) {}

  reason(root: number, relativePath: string, isFolder = false): HiddenReason | undefined {
    if (!relativePath) return undefined;
    if (GIT_FOLDER.test(relativePath)) return 'git';
    if (this.excluded(relativePath)) return 'excluded';
    if (this.ignores.get(root)?.ignores(relativePath, isFolder)) return 'ignored';
    return undefined;
  }
}
