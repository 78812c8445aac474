// English words the stemmer treats as exceptions (sentences.ts): words that only look like a derived form.

/** -ment nouns whose stem is no verb of theirs. */
export const MENT_NOUNS_LIST = ["department", "apartment", "compartment", "experiment", "supplement", "complement", "compliment", "tournament", "environment", "instrument", "sentiment", "detriment", "increment", "implement"];
/** -tion nouns whose verb-looking stem says something else. */
export const TION_NOUNS_LIST = ["vacation", "situation", "conversation"];
/** -our words that are not British spellings of -or ones. */
export const OUR_WORDS_LIST = ["hour", "four", "flour", "pour", "tour", "sour", "your", "contour", "detour", "devour", "dour", "amour", "velour", "troubadour", "paramour"];
/** Adverbs that say something else than their adjective ("hardly" is not "hard", "likely" not "like"). */
export const SHIFTED_ADVERBS_LIST = ["likely", "hardly", "shortly", "nearly", "barely", "lately", "presently", "fairly", "really", "merely", "scarcely", "largely", "mostly", "highly", "only"];
