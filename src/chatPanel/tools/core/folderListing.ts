/**
 * The entries directly inside a folder, from the paths of the files below it (relative, `/`-separated): folders first
 * with the number of files under each, then files.
 */
export function listFolder(label: string, folder: string, filesBelow: readonly string[], limit = 500): string {
  const prefix = folder ? `${folder}/` : '';
  const folders = new Map<string, number>();
  const files: string[] = [];
  for (const path of filesBelow) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) files.push(rest);
    else folders.set(rest.slice(0, slash), (folders.get(rest.slice(0, slash)) ?? 0) + 1);
  }
  if (folders.size === 0 && files.length === 0) return `${label} is empty, or everything in it is excluded (files.exclude, search.exclude, .gitignore).`;
  const entries = [
    ...[...folders.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, count]) => `${name}/ (${count} file${count === 1 ? '' : 's'})`),
    ...files.sort((a, b) => a.localeCompare(b)),
  ];
  const shown = entries.slice(0, limit);
  const more = entries.length > shown.length ? `\n… and ${entries.length - shown.length} more` : '';
  return `${label} (${folders.size} folder${folders.size === 1 ? '' : 's'}, ${files.length} file${files.length === 1 ? '' : 's'}):\n${shown.join('\n')}${more}`;
}
