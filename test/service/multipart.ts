import { createHash } from 'node:crypto';

/** A file part of a multipart/form-data request, as the request log keeps it (the bytes only by size and hash). */
export interface RecordedFilePart {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** A multipart/form-data body in the request log: its text fields and its file parts, by field name. */
export interface MultipartBody {
  multipart: true;
  fields: Record<string, string>;
  files: Record<string, RecordedFilePart>;
}

export function isMultipartBody(body: unknown): body is MultipartBody {
  return typeof body === 'object' && body !== null && (body as { multipart?: unknown }).multipart === true;
}

/**
 * Parses a multipart/form-data body with the platform's own parser (the Fetch API's `Response.formData()`), or
 * undefined when it is not one or does not parse (the log then keeps the text).
 */
export async function parseMultipart(raw: Buffer, contentType: string | undefined): Promise<MultipartBody | undefined> {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
  const body: MultipartBody = { multipart: true, fields: {}, files: {} };
  const entries: [string, FormDataEntryValue][] = [];
  form.forEach((value, name) => entries.push([name, value]));
  for (const [name, value] of entries) {
    if (typeof value === 'string') {
      body.fields[name] = value;
      continue;
    }
    const bytes = Buffer.from(await value.arrayBuffer());
    body.files[name] = { fileName: value.name, contentType: value.type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }
  return body;
}
