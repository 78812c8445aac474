// The single-hop retrieval sets built from the eval data (ClapNQ, SQuAD 2.0 subset): documents and each
// answerable question's relevant document. Shared by eval-context.ts and fit-ranker.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR } from "./eval-common";

export interface RetrievalSet {
  name: string;
  docs: { id: string; title: string; text: string }[];
  queries: { query: string; relevant: string }[];
}

export function clapnq(): RetrievalSet {
  const read = (file: string) =>
    readFileSync(join(EVAL_DIR, "clapnq", file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const answerable = read("dev_answerable.jsonl");
  const rows = [...answerable, ...read("dev_unanswerable.jsonl")];
  return {
    name: "ClapNQ",
    docs: rows.map((r: any) => ({ id: r.id, title: r.passages[0].title, text: r.passages[0].text })),
    queries: answerable.map((r: any) => ({ query: r.input, relevant: r.id })),
  };
}

export function squad(): RetrievalSet {
  const data = JSON.parse(readFileSync(join(EVAL_DIR, "squad2", "dev-v2.0-subset.json"), "utf8")).data;
  const docs: RetrievalSet["docs"] = [];
  const queries: RetrievalSet["queries"] = [];
  for (const article of data)
    article.paragraphs.forEach((p: any, i: number) => {
      const id = `${article.title}-${i}`;
      docs.push({ id, title: article.title.replaceAll("_", " "), text: p.context });
      for (const qa of p.qas) if (!qa.is_impossible) queries.push({ query: qa.question, relevant: id });
    });
  return { name: "SQuAD 2.0", docs, queries };
}

