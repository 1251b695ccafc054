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
}
