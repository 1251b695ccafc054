"""Word lists shared by the rule extractor and slot matching."""

from __future__ import annotations

# Capitalised words that are not names, even mid-sentence.
NOT_NAMES = {
    "i", "i'm", "i've", "i'll", "i'd", "ok", "okay", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "the", "a", "an", "and", "but", "so", "also", "actually", "yes", "no",
    "we", "we're", "it's", "it", "that", "this", "that's", "he", "she", "they", "our", "my", "hi", "hey", "thanks",
    "sure", "great", "good", "let's", "what", "when", "where", "which", "who", "how", "why", "if", "then", "there",
    "here", "not", "one", "two", "three", "big", "quick", "small", "different", "on", "in", "at", "for", "to",
    "with", "from", "by", "of", "as", "is", "are", "was", "were", "be", "do", "did", "does", "can", "will", "would",
    "should", "could", "just", "please", "noted", "decision", "owner", "risk", "open", "done", "today", "tomorrow",
    "yesterday", "mr", "mrs", "ms", "dr", "ceo", "cfo", "cto", "coo", "vp",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "fyi", "btw", "re",
    "note", "reminder", "update", "correction", "heads", "ps", "asap", "eod", "eta", "tbd",
    # time words and interjections that open a chat message ("Last Friday I …", "Wow, …", "Tues works")
    "last", "next", "now", "recently", "lately", "tues", "thurs", "thur", "wed", "thu", "fri", "weekend", "tonight",
    "earlier", "later", "soon", "wow", "woah", "whoa", "oh", "yeah", "yep", "yup", "lol", "omg", "congrats", "congratulations",
    "awesome", "cool", "nice", "anyway", "hello", "glad", "wish", "during", "after", "before", "since", "until",
    "around",
}
#: sentence adverbs that open a message ("Thankfully, the rain held off"): no name, and no topic to name a thread by
SENTENCE_ADVERBS = frozenset({
    "thankfully", "hopefully", "luckily", "unluckily", "fortunately", "unfortunately", "honestly", "basically",
    "definitely", "apparently", "obviously", "surprisingly", "sadly", "finally", "seriously", "literally",
    "personally", "currently", "usually", "generally", "eventually", "ultimately", "clearly", "certainly",
    "probably", "maybe", "anyways", "meanwhile", "besides", "sometimes", "often", "normally", "naturally",
    "funnily", "interestingly", "admittedly", "frankly", "truthfully", "originally", "initially", "overall",
})
NOT_NAMES |= SENTENCE_ADVERBS
# Words that start a sentence and then run into a name ("Need Mateo's approval", "Met Dana at the fair").
STARTERS = {
    "need", "needs", "got", "had", "have", "just", "still", "finally", "maybe", "sorry", "remind", "let", "make",
    "put", "tell", "ask", "call", "check", "send", "book", "get", "met", "saw", "spoke", "talked", "heard", "told",
    "emailed", "pinged", "called", "texted", "booked", "sent", "asked", "thank", "thanks", "ping", "email", "text",
    "waiting", "talking", "meeting", "seeing", "visiting", "hopefully", "apparently", "honestly", "anyway", "sadly",
    "luckily", "turns", "looks", "seems", "according", "per", "via", "about", "regarding", "re", "since", "until",
}
# Nationalities and cuisines: adjectives ("the Thai place"), not entities on their own.
DEMONYMS = {
    "thai", "italian", "chinese", "japanese", "indian", "mexican", "french", "korean", "vietnamese", "greek",
    "spanish", "turkish", "lebanese", "ethiopian", "american", "british", "german", "english", "irish", "scottish",
    "portuguese", "brazilian", "peruvian", "moroccan", "persian", "syrian", "nepalese", "malaysian", "indonesian",
    "filipino", "caribbean", "cuban", "argentinian", "polish", "russian", "ukrainian", "dutch", "belgian", "swiss",
    "swedish", "danish", "norwegian", "finnish", "austrian", "hungarian", "czech", "mediterranean", "asian",
    "european", "african", "middle", "eastern", "western", "nordic", "cajun", "creole", "tex-mex", "szechuan",
    "sichuan", "cantonese", "hawaiian", "australian", "canadian", "israeli", "egyptian", "tunisian", "georgian",
}
