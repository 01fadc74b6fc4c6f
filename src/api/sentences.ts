/** Full-width punctuation (CJK symbols, full-width forms): sentences ending or starting with it take no space between. */
const FULL_WIDTH_PUNCTUATION = /[\u3000-\u303f\uff00-\uffef\u2018\u2019\u201c\u201d\u2026]/;

type Sentence = string | undefined;

/**
 * Whole sentences (each already in the user's language: a headline, what the service said, the hint) as one text:
 * separated by a space, as English writes them, but not next to full-width punctuation (`已连接。密钥额度：…`, as
 * Chinese writes them). Empty parts are left out. Takes the sentences one by one or as a list.
 */
export function joinSentences(...parts: readonly (Sentence | readonly Sentence[])[]): string {
  let text = '';
  for (const sentence of parts.flat()) {
    if (!sentence) continue;
    const tight = !text || FULL_WIDTH_PUNCTUATION.test(text.at(-1)!) || FULL_WIDTH_PUNCTUATION.test(sentence[0]!);
    text += tight ? sentence : ` ${sentence}`;
  }
  return text;
}
