import { MIN_SECRET_LENGTH, redactSecrets } from '../api/redaction';

/** Removes every registered secret and anything shaped like a key from text before it is logged or shown. */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  register(secret: string | undefined): void {
    const value = secret?.trim();
    if (value && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
  }

  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}
