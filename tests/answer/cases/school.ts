// A primary school's policies, a café's hours and a menu. Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const SCHOOL_TABLE: AnswerTable = {
  brain: "Oakridge",
  pages: {
    "Oakridge Primary: key policies": `# Oakridge Primary: key policies

## School day

The gates open at 8:40 and registration is at 8:50. The school day ends at 15:15.
Breakfast club runs from 7:45 in the hall and costs £3 a day.
After-school club runs until 18:00 and costs £12 a session; book through ParentPay.`,
  },
  cases: [
    // Was "The school day ends at 15:15." and the after-school club: "start" was said nowhere, and the end of
    // the day held "school" and a time.
    { name: "a start said in other words is the start", question: "What time does school start?", startsWith: "The gates open at 8:40 and registration is at 8:50.", excludes: ["After-school club"] },
    { name: "an end is no start", question: "When does school finish?", startsWith: "The school day ends at 15:15." },
  ],
};

export const CAFE_TABLE: AnswerTable = {
  brain: "Café",
  pages: {
    "Olive & Thyme café": `# Olive & Thyme café

| Day | Hours |
|---|---|
| Monday | Closed |
| Saturday | 9:00–17:00 |
| Sunday | 9:00–15:00 |`,
  },
  cases: [
    // Was the Monday row too: its "Closed" said "close", which the Saturday row did not.
    { name: "a span of clock times says when a day opens and closes", question: "What time do you close on Saturday?", contains: ["Day: Saturday; Hours: 9:00–17:00."], excludes: ["Monday"] },
  ],
};

export const MENU_TABLE: AnswerTable = {
  brain: "Menu",
  pages: {
    Menu: `# Menu

## Breakfast (until 11:30)

| Dish | Price |
|---|---|
| Shakshuka with sourdough | £9.50 |
| Full English | £12.00 |

## Lunch (from 12:00)

| Dish | Price |
|---|---|
| Halloumi salad | £10.50 |
| Chicken focaccia | £11.00 |`,
  },
  cases: [
    // Was thin: the rows' prices read as clock times ("£9.50"), and "start" was said nowhere.
    { name: "a heading's 'from' a time says when its section starts; a price is no time", question: "When does lunch start?", thin: false, contains: ["Lunch (from 12:00): Dish: Halloumi salad"] },
    { name: "a heading's 'until' a time says when its section ends", question: "When does breakfast end?", contains: ["Breakfast (until 11:30): Dish: Shakshuka with sourdough"] },
  ],
};
