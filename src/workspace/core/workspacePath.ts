/**
 * A path the model gave, as segments relative to a workspace folder: `./`, `\` and repeated slashes are tidied;
 * `..` may not climb out. Undefined when it would (the tools read only inside the workspace).
 */
export function relativeSegments(path: string): string[] | undefined {
  const segments: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(part);
  }
  return segments;
}
