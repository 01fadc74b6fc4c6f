import * as z from 'zod/mini';
import type { ToolSpec } from '../../core/toolbox';

// Promptreel's own tools: they only read the workspace, so the user may allow each for a whole chat. Their inputs
// come from the model and are checked here like any other input.

const path = z.string().check(z.minLength(1), z.maxLength(1_000));
const line = z.int().check(z.gte(1));

export const WORKSPACE_TOOL_INPUTS = {
  promptreel_read_file: z.object({ path, startLine: z.optional(line), endLine: z.optional(line) }),
  promptreel_list_folder: z.object({ path: z.optional(z.string().check(z.maxLength(1_000))) }),
  promptreel_search_text: z.object({
    query: z.string().check(z.minLength(1), z.maxLength(500)),
    isRegExp: z.optional(z.boolean()),
    caseSensitive: z.optional(z.boolean()),
    include: z.optional(z.string().check(z.maxLength(500))),
  }),
  promptreel_find_symbols: z.object({ query: z.optional(z.string().check(z.maxLength(200))), path: z.optional(path) }),
  promptreel_read_problems: z.object({ path: z.optional(path) }),
} as const;

export type WorkspaceToolName = keyof typeof WORKSPACE_TOOL_INPUTS;
export type WorkspaceToolInput<N extends WorkspaceToolName> = z.infer<(typeof WORKSPACE_TOOL_INPUTS)[N]>;

const PATH_HELP = 'Relative to the workspace folder (in a multi-root workspace, start with the folder name), e.g. "src/app.ts".';

const SPECS: Record<WorkspaceToolName, { description: string; properties: Record<string, unknown>; required: string[] }> = {
  promptreel_read_file: {
    description:
      'Read a text file of the workspace, or a range of its lines, with line numbers. Unsaved changes in open editors are included. Files hidden by files.exclude, search.exclude or .gitignore are not readable.',
    properties: {
      path: { type: 'string', description: PATH_HELP },
      startLine: { type: 'integer', minimum: 1, description: 'First line to read (1-based). Default: 1.' },
      endLine: { type: 'integer', minimum: 1, description: 'Last line to read (inclusive). Default: the end, up to 2000 lines.' },
    },
    required: ['path'],
  },
  promptreel_list_folder: {
    description: 'List the files and folders directly inside a folder of the workspace (folders end with "/"), with the number of files under each folder.',
    properties: { path: { type: 'string', description: `${PATH_HELP} Empty for the workspace root.` } },
    required: [],
  },
  promptreel_search_text: {
    description: 'Search the text of the workspace files for a string or a regular expression; answers file:line: text for each match (at most 200).',
    properties: {
      query: { type: 'string', description: 'The text to find (or a JavaScript regular expression when isRegExp is true).' },
      isRegExp: { type: 'boolean', description: 'Treat the query as a regular expression. Default: false.' },
      caseSensitive: { type: 'boolean', description: 'Match case. Default: false.' },
      include: { type: 'string', description: 'Only files whose relative path matches this glob, e.g. "src/**/*.ts".' },
    },
    required: ['query'],
  },
  promptreel_find_symbols: {
    description:
      "Find symbols (classes, functions, variables…) by name across the workspace with the language extensions' symbol search, or list the symbols of one file (give path instead of query).",
    properties: {
      query: { type: 'string', description: 'Part of the symbol name.' },
      path: { type: 'string', description: `List the symbols of this file instead. ${PATH_HELP}` },
    },
    required: [],
  },
  promptreel_read_problems: {
    description: "Read the problems (errors, warnings) VS Code's language extensions report, for one file or the whole workspace.",
    properties: { path: { type: 'string', description: `Only this file. ${PATH_HELP} Omit for the whole workspace.` } },
    required: [],
  },
};

export const WORKSPACE_TOOL_NAMES = Object.keys(SPECS) as WorkspaceToolName[];

export function isWorkspaceTool(name: string): name is WorkspaceToolName {
  return Object.hasOwn(SPECS, name);
}

export const WORKSPACE_TOOLS: readonly ToolSpec[] = WORKSPACE_TOOL_NAMES.map((name) => ({
  name,
  description: SPECS[name].description,
  inputSchema: { type: 'object', properties: SPECS[name].properties, required: SPECS[name].required },
  readOnly: true,
  source: 'promptreel' as const,
}));

/** The input checked against the tool's schema, or what is wrong with it (the model reads that and can try again). */
export function parseWorkspaceToolInput<N extends WorkspaceToolName>(name: N, input: unknown): WorkspaceToolInput<N> | string {
  const parsed = WORKSPACE_TOOL_INPUTS[name].safeParse(input);
  if (parsed.success) return parsed.data as WorkspaceToolInput<N>;
  const issue = parsed.error.issues[0];
  return `Invalid arguments for ${name}: ${issue?.path.length ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'not as the schema says'}.`;
}
