const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer ***'],
  [/\bsk-[A-Za-z0-9._-]{4,}/g, 'sk-***'],
];

/** Secrets shorter than this are not registered: redacting them would garble ordinary text. */
const MIN_SECRET_LENGTH = 4;

/** Removes every registered secret and anything shaped like a key from text before it is logged. */
export class SecretRedactor {
  private secrets: string[] = [];

  register(secret: string | undefined): void {
    const value = secret?.trim();
    if (!value || value.length < MIN_SECRET_LENGTH || this.secrets.includes(value)) return;
    // Longest first, so a key containing another one is replaced whole.
    this.secrets = [...this.secrets, value].sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('***');
    for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
    return result;
  }
}
