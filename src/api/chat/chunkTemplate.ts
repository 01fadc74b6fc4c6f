import { chunkSchema, deltaTextSchema, type ChatChunk } from './schemas';

type TextField = 'content' | 'reasoning_content' | 'reasoning';
const TEXT_FIELDS: readonly TextField[] = ['content', 'reasoning_content', 'reasoning'];

/** Up to this length a loop over the characters beats JSON.parse; beyond, the native parser scans faster. */
const SHORT_BODY = 32;

/** No quote, backslash or control character: the JSON string body is its own value. */
function isPlainStringBody(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}

/**
 * A stream repeats one chunk layout in which only the delta text changes. Once a chunk was parsed and validated by
 * `chunkSchema`, its text with that one string value cut out becomes a template. A next chunk made of exactly the same
 * prefix and suffix around a well-formed JSON string body is the same JSON document with another string in that
 * place: everything but that string is byte for byte what was validated already, so only the string is read and
 * validated (by the field's own schema), and neither `JSON.parse` nor a parse of the whole layout runs again. Anything
 * else (another id, a usage field, an escape that does not fit) does not match and goes through the full parse.
 */
export class ChunkTemplate {
  private constructor(
    private readonly prefix: string,
    private readonly suffix: string,
    /** Which delta field the value is. */
    readonly field: TextField,
    /** The delta's role, repeated by every chunk of this layout. */
    readonly role: string | undefined,
  ) {}

  /** A template from a chunk's text and its validated content, when it has one non-empty text field to vary. */
  static from(text: string, chunk: ChatChunk): ChunkTemplate | undefined {
    const choice = chunk.choices?.length === 1 ? chunk.choices[0] : undefined;
    const delta = choice?.delta;
    if (!choice || !delta || chunk.error || chunk.usage || choice.finish_reason || delta.tool_calls) return undefined;
    const fields = TEXT_FIELDS.filter((name) => typeof delta[name] === 'string' && delta[name] !== '');
    if (fields.length !== 1) return undefined;
    const field = fields[0];
    const needle = `"${field}":${JSON.stringify(delta[field])}`;
    const at = text.indexOf(needle);
    // Not found: the sender escapes differently than JSON.stringify; found twice: ambiguous. Either way, no template.
    if (at < 0 || text.includes(needle, at + 1)) return undefined;
    const template = new ChunkTemplate(text.slice(0, at + field.length + 4), text.slice(at + needle.length - 1), field, delta.role ?? undefined);
    return template.cutsAt(delta[field] === 'p' ? 'q' : 'p') ? template : undefined;
  }

  /**
   * The value of the template's field in this chunk, when the chunk fits the template; undefined otherwise (the caller
   * parses it in full).
   */
  match(text: string): string | undefined {
    const end = text.length - this.suffix.length;
    // Comparing slices is about twice as fast as startsWith/endsWith for prefixes this long.
    if (end < this.prefix.length || text.slice(0, this.prefix.length) !== this.prefix || text.slice(end) !== this.suffix) return undefined;
    // Between the quotes the template keeps, the body must be exactly one JSON string: an unescaped quote or a
    // trailing backslash would change the document's structure, and a control character is not JSON at all.
    const body = text.slice(this.prefix.length, end);
    let value: unknown = body;
    if (body.length > SHORT_BODY || !isPlainStringBody(body)) {
      try {
        // Checks all of the above and decodes the escapes, at a fraction of what parsing the whole chunk costs. The
        // string is parsed with the quotes around it, as a slice of the chunk's text (no copy).
        value = JSON.parse(text.slice(this.prefix.length - 1, end + 1));
      } catch {
        return undefined;
      }
    }
    const checked = deltaTextSchema.safeParse(value);
    return checked.success && typeof checked.data === 'string' ? checked.data : undefined;
  }

  /** Proves the cut is where the varying value is: the text with another value there parses to that value. */
  private cutsAt(probe: string): boolean {
    try {
      const parsed = chunkSchema.safeParse(JSON.parse(`${this.prefix}${probe}${this.suffix}`));
      return parsed.success && parsed.data.choices?.length === 1 && parsed.data.choices[0].delta?.[this.field] === probe;
    } catch {
      return false;
    }
  }
}
