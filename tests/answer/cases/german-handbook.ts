// A German handbook: German questions lose their function words and are answered in whole sentences.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const GERMAN_HANDBOOK_TABLE: AnswerTable = {
  brain: "Handbuch",
  pages: {
    Urlaubsregelung:
      "Jede Vollzeitkraft hat Anspruch auf 30 Tage bezahlten Urlaub im Jahr. Urlaubsanträge werden in Personio gestellt und von der Teamleitung genehmigt. Nicht genommener Urlaub verfällt am 31. März des Folgejahres.",
    Reisekosten: "Bahnfahrten werden in der 2. Klasse gebucht. Hotelkosten werden bis 120 Euro pro Nacht erstattet.",
  },
  cases: [
    { name: "German questions are answered from the page that says it, whole sentences quoted", question: "Wie viel wird für Hotels erstattet?", thin: false, contains: ["Hotelkosten werden bis 120 Euro pro Nacht erstattet."], citesExactly: ["reisekosten"] },
    { name: "a German ordinal does not cut the sentence quoted", question: "Wann verfällt der Urlaub?", thin: false, contains: ["verfällt am 31. März des Folgejahres."] },
    { name: "a German question the pages do not answer is thin", question: "Gibt es einen Firmenwagen?", thin: true, citesExactly: [] },
  ],
};
