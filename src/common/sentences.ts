/** Full-width punctuation (CJK symbols, full-width forms): sentences ending or starting with it take no space between. */
const FULL_WIDTH_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef]/;

/**
 * Whole sentences (each already in the user's language) as one text: separated by a space, as English writes them,
 * but not next to full-width punctuation (`已连接。密钥额度：…`, as Chinese writes them). Empty parts are left out.
 */
export function joinSentences(sentences: readonly (string | undefined)[]): string {
  let text = '';
  for (const sentence of sentences) {
    if (!sentence) continue;
    const tight = !text || FULL_WIDTH_PUNCTUATION.test(text.at(-1)!) || FULL_WIDTH_PUNCTUATION.test(sentence[0]!);
    text += tight ? sentence : ` ${sentence}`;
  }
  return text;
}
