// General English word lists the answer's evidence reads with (evidence.ts, evidence-text.ts, question.ts).

/** Function words: a passage with hardly any reads as a flattened table, not prose. */
export const FUNCTION_WORD_LIST = "the of and a an to in is was are were on for with by as at from that this it its be been has have had or which who not but their his her they he she".split(" ");
/** Words for when something starts, and for when it ends. */
export const START_WORDS = ["start", "begin", "commence", "open"];
export const END_WORDS = ["end", "finish", "close", "expire"];
/** The verbs of "where is it …" that a place said as one says. */
export const PLACE_VERB_LIST = ["based", "located", "situated", "headquartered", "held", "hosted", "live", "lives", "work", "works"];
/** Verbs that ask for a remedy or a way, not for an action a page names ("How do I FIX slow uploads?"). */
export const GENERIC_ACTION_LIST = ["fix", "solve", "resolve", "troubleshoot", "debug", "repair", "handle", "deal", "avoid", "prevent", "get", "make", "do", "find", "know"];
/** Modal verbs a question asks with and its answer does not repeat. */
export const MODAL_LIST = ["must", "should", "shall", "may", "might", "ought"];
/** Words of a question that weigh nothing in the evidence (modal verbs; "get" and "make", which ask with the word they come with). */
export const UNWEIGHED_LIST = ["must", "should", "shall", "might", "ought", "get", "gets", "got", "getting", "gotten", "make", "makes", "made", "making"];
/** "When is the NEXT home game?": words a date answers without saying them. */
export const NEXT_LIST = ["next", "upcoming"];
