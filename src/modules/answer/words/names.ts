// Words that tell a name is not a person's: a place's or an organisation's name opens with them ("Greater
// Western Sydney", "New South Wales", "Fort Worth"), so its last word alone ("Sydney") does not stand for it as
// a surname does for a person ("Bettany" for "Paul Bettany").

export const PLACE_OPENERS = new Set([
  "greater", "western", "eastern", "northern", "southern", "north", "south", "east", "west", "new", "old", "upper", "lower", "central",
  "united", "great", "little", "royal", "national", "federal", "saint", "st", "san", "santa", "fort", "mount", "lake", "port", "cape",
  "university", "county", "city", "republic", "kingdom", "state", "province", "district",
]);
