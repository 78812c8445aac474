import { t } from "elysia";

/** Longer questions are documents, not questions: 422 (the 1 MiB JSON cap would only say 413 far later). */
export const MAX_QUESTION_CHARS = 4000;

const text = (description: string) => t.String({ minLength: 1, maxLength: MAX_QUESTION_CHARS, pattern: "\\S", description });

export const brainParams = t.Object({ brainId: t.String({ minLength: 1, maxLength: 100 }) });
export const askBody = t.Object({ question: text("The question, in any language") });
export const contextBody = t.Object({ query: text("What to retrieve pages for") });
