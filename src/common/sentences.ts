// Whole translated sentences joined as the language writes them: see src/api/sentences.ts.
export { joinSentences } from '../api/sentences';
