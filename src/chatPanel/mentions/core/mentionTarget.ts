import * as z from 'zod/mini';

// What a popup entry points at. The host writes it into the entry's key and reads it back when the user picks the
// entry; the key comes back from the page, so it is parsed like any other input.

const uri = z.string().check(z.minLength(1), z.maxLength(3_000));
const line = z.int().check(z.gte(1));

export const mentionTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), uri }),
  z.strictObject({ kind: z.literal('folder'), uri }),
  z.strictObject({ kind: z.literal('currentFile') }),
  z.strictObject({ kind: z.literal('openEditor'), uri }),
  z.strictObject({ kind: z.literal('problems'), scope: z.enum(['file', 'workspace']) }),
  z.strictObject({ kind: z.literal('terminalSelection') }),
  z.strictObject({ kind: z.literal('terminalOutput') }),
  z.strictObject({
    kind: z.literal('gitChanges'),
    scope: z.enum(['staged', 'unstaged', 'branch']),
    ref: z.optional(z.string().check(z.minLength(1), z.maxLength(300))),
  }),
  z.strictObject({ kind: z.literal('symbol'), uri, name: z.string().check(z.maxLength(500)), startLine: line, endLine: line }),
]);

export type MentionTarget = z.infer<typeof mentionTargetSchema>;

export function mentionKey(target: MentionTarget): string {
  return JSON.stringify(target);
}

/** The target a key names, or undefined for a key the host did not write. */
export function parseMentionKey(key: string): MentionTarget | undefined {
  try {
    const parsed = mentionTargetSchema.safeParse(JSON.parse(key));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
