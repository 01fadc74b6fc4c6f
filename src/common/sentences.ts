/** A sentence ending in full-width punctuation (Chinese, Japanese) is followed by the next one without a space. */
const FULL_WIDTH_END = /[\u3000-\u303f\uff00-\uffef\u2018\u2019\u201c\u201d\u2026]$/;

/**
 * Sentences written one after the other, each whole and already in the user's language (a headline, what the service
 * said, the hint): empty ones left out, a space between them in English, none after a full-width `。`.
 */
export function joinSentences(...sentences: readonly (string | undefined)[]): string {
  return sentences
    .filter((sentence): sentence is string => !!sentence)
    .reduce((text, sentence) => (text === '' ? sentence : `${text}${FULL_WIDTH_END.test(text) ? '' : ' '}${sentence}`), '');
}
