// The shape of an answer case: a brain's pages (written by the test), questions asked of it, and what each
// answer must and must not contain. Run by tests/answer/cases.test.ts on one server for every table.

export interface AnswerCase {
  /** What the case shows (the test's name); the question when omitted. */
  name?: string;
  question: string;
  /** Strings (or patterns) the answer holds. */
  contains?: (string | RegExp)[];
  /** Strings (or patterns) it must not hold. */
  excludes?: (string | RegExp)[];
  /** How the answer opens. */
  startsWith?: string;
  /** true: the brain says it cannot answer; false: it answers. */
  thin?: boolean;
  /** Slugs the citations hold. */
  cites?: string[];
  /** The answer's lines, each without its citations, are exactly these. */
  lines?: string[];
  /** The slugs cited, all of them, in order. */
  citesExactly?: string[];
  /** The slug cited first. */
  firstCited?: string;
}

export interface AnswerTable {
  /** The brain's name; one brain per table. */
  brain: string;
  /** Title → markdown. */
  pages: Record<string, string>;
  cases: AnswerCase[];
}
