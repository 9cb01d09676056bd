"""Reading a judge's reply: the candidates it names, for every judging task, and the
score a rating's reply declares. Pure functions, no I/O.

One reader serves the three tasks (``task``): ``choice`` (which answer options are
correct / incorrect), ``pairwise`` (which of two responses is better / worse) and
``checklist`` (which criteria a response meets / fails to meet, which claims its sources
support / do not support). What changes per task is only the vocabulary: the task's
polarity words and the nouns a reply names candidates by (one description per task,
``prin_guard.tasks._words.TASK_WORDS``, plus the caller's ``words`` and ``nouns``) and what
an empty or full set means (a tie, for a pair).

**The reply's conclusion decides.** Judges discuss every candidate before (or after)
they conclude: a candidate mentioned inside reasoning is never read as the answer. The
reader looks for the places where a reply states its answer, in this order; the first
that yields one wins and is recorded as the leg's ``parse_method``:

1. ``structured``: a JSON object that holds an answer, whatever its key
   (``{"labels": [...]}``, ``{"answer": "A, C"}``, ``{"incorrect": ["B"]}``,
   ``{"winner": "tie"}``), or one status per candidate (``{"A": true, "B": false}``,
   ``{"met": ["A"], "not_met": ["B"]}``, a list of records ``[{"criterion": "A",
   "met": true}]``, scores ``{"A": 8, "B": 6}`` for a pair). Keys in the leg's own
   words rank first, then answer keys, then any other key (only in an object that is the
   whole reply); an object whose best keys disagree is not read. The last object wins.
2. The latest of: an answer tag (``<answer>A, C</answer>``, ``answer_tag``), a verdict
   tag (MT-Bench ``[[A]]``, ``[[B]]``, ``[[C]]`` for a tie; Arena-Hard ``[[A>>B]]``,
   ``[[A>B]]``, ``[[A=B]]``, ``[[B>A]]``, ``[[B>>A]]``; Prometheus ``[RESULT] A``;
   ``VERDICT_TAG``), and an answer line (``final_line``: "Answer: C", "Final verdict:
   Output (b)", "Conclusion: ..."; an empty one is answered by the line or the list
   below it). Verdict tags that disagree with each other are no verdict: the leg fails.
3. ``heading``: a line headed in the leg's own words ("Incorrect: B, D", "Winner: A",
   "Not met: B").
4. The whole reply is an answer: "none", labels only ("C, D", "Output (a)"), or, for
   one candidate, a status ("PASS", "Yes").
5. The conclusion in prose (``label_forms``; a line that is only a quantifier or a tie,
   "Both.", "Tie", is one), else the candidates' statuses (below).
6. For ``choice`` only (small models answer this way): loose forms anywhere ("c)",
   "(C)", "option C", a numbered list), then candidate texts (also for ``checklist``).

Nothing found is ``ParseStatus.FAILED``, never an exception, and never a guess: a
reply cut off before it concludes, a refusal or a hedge ("it depends") fails.

**The conclusion in prose.** A *whole-answer claim* states the answer: "the answer is
C", "the incorrect options are D and E", "Output (a) is better" (for a pair every
comparison is one), "I prefer Response 2", "The better one is B", "Both are equally
good" (a tie), "all of them are correct", "The response meets all criteria". Each claim
has a strength: 2 when its sentence concludes ("therefore", "so", "overall", "in
conclusion", "I think", "my verdict", ...) or the form does ("I prefer X", "X wins",
"the winner is X"); 1 when it stands at an edge of the reply (its first sentence, or
its last line: judges conclude first, PaLM 2's "Output (b) is better. Output (a) ...",
as often as last, GPT-4's "... Therefore, Output (a) is better."); 0 otherwise. A claim
qualified by an aspect ("in terms of detail, A is better") is 0 unless its sentence
concludes; a hedged one ("if brevity matters, A is better", "A is better if ...") is
no claim, and neither is one where a cut-off reply stops while it could still be
qualified ("Output (a) is better for"). The conclusion is the claims of the highest
strength above 0: when they agree, their answer; when they disagree, the last one if a
revision ("wait", "on second thought", "actually") comes between, else no conclusion
(the leg fails). Two claims in one sentence: the later
stands ("A is fine, but B is better"). Only for ``choice`` do unanimous claims of
strength 0 count when nothing else does (the earlier parser read them).

**Per-candidate statuses.** For the set-valued tasks (choice, checklist) a reply may
instead give each candidate a status: sentences ("A is correct.", "B and D are wrong.",
"Criterion 2 is not met.", "The response meets criteria A and C.", "C is correct; the
rest are incorrect.") and structures (list lines "A: met", "1. ✓ Uses a formal tone",
"- [x] B", "B — not met"; table rows ``| A | Yes |`` under a header; JSON maps, rule 1).
The last status of each candidate stands, and the answer is the candidates whose status
is the leg's (met on the direct leg, not met on the reverse one). A status is a word
(met/not met, pass/fail, supported/unsupported, correct/incorrect, the template's), a
mark (✓ ✗) or a selection: yes/no, true/false, a ticked box, read as the answer to the
table column's header when it has a polarity ("Met?") and else to the leg's question
(on the reverse leg "A: yes" says A fails). When no status is the leg's: a structure
that gives every candidate a status answers "none"; otherwise the reply only answers the
other question and the leg fails.

**The question's own words.** A choice question's predicate ("Which planet is known as
the Red Planet?": "red planet"; "Which animals are mammals?": "mammals") is the direct
side's: on the reverse leg, a concluding answer ("Answer: B", "The answer is A, C") that
names only candidates the reply said, before it, have that predicate in a plain sentence
("The Red Planet is Mars.", "Whales and bats are mammals.") answers the direct question,
and the leg fails (marked polarity-confused). On the direct leg, a last sentence "None of
the given ratios ..." in the question's own noun ("Which ratio ...?"), with no polarity
word, exception or doubt, is the direct question's none.

**Every mention accounted for.** For the set tasks a reading is confident only when
every candidate its concluding part (the answer's line, or in a long line its sentence,
and what follows) names outside the answer has a side there that agrees with it: a side
that contradicts the reading fails the leg ("Answer: A, C. Note: C is wrong."), a mention
no stage explains makes it weak ("Note: B and D were close."). The stages gather the
mentions and sides (``_read._mentions``, ``_read._sides``); the resolver decides
(``_resolve._accounted``). A pair is exempt: its one answer places the other response.

**Names.** Candidates are named by label, by the task's nouns ("Output (a)", "Response
2", "Assistant B", "the first response", "criterion 3", "claims 1 and 3"; for one
candidate "the criterion") or by their text. Before reading, every such name is written
over by its label in a copy of the reply of the same length (:func:`_name_labels`), so
that every reader knows one form: a letter or number after a noun is the label itself
when it is one, else a position among the shown labels (a/1/first the first one), and
spans still point into the reply (at the letter, number or ordinal of the name).

**Ties.** For a pair, an answer that names both responses or neither ("tie", "both are
equally good", "neither is better", "they are equally bad", "both", "neither", ``[[C]]``,
``[[A=B]]``, ``{"winner": "tie"}``) is a tie: on the direct leg both labels (both are
the best), on the reverse leg none (``ParseStatus.NONE``: neither is worse). A
consistent tie reads ``{A, B}`` and ``{}``, PRIN 0.

**Copied text.** A judge may restate its prompt, and the prompt holds text the caller
does not control (the question, the context, candidate texts, reasoning paths): passed
as ``echo``. A stretch of the reply copied from them (``COPY_WORDS`` words in a row that
the echo holds, or a whole line, sentence or clause after a colon that it holds; a short
one only when the echo holds it as written, marks included) which holds an answer's
words (an answer head, a polarity or status word, a verdict tag, a JSON object or tag,
with a label or a quantifier, outside any candidate's own text unless that text itself
reads as an answer) is blanked before reading (:func:`_blank_copies`): whatever form
it takes, copied text is never the judge's answer, and ``copied`` says that something
was blanked so the caller can flag the verdict (issue 21, item 10: "The correct option
is E." injected in the question and restated by the judge). A reply
that repeats the whole prompt is ``echoed`` (:func:`detect_echo`): only what follows its
question sentence, less the copied lines, is read.

**Disagreement.** A label written with a text that is another candidate's ('The answer
is "C) 1 : 1"' where C is "1 : 6" and B is "1 : 1") is not read: the leg fails and
``disagreement`` is set.

**Polarity.** A caller that knows which question the reply answers passes ``polarity``
(and, for a template of its own, its ``words``). Each place has the *sign* of its words:
+1 for "correct", "better", "met", ...; -1 for "incorrect", "worse", "not met", ...; 0
for neither (:class:`_Vocab`). A place in the *opposite* words ("Correct: C" on the
reverse leg, "Output (a) is better" on the reverse leg) is not read as this leg's
answer; when nothing else is found the parse fails rather than read loose forms, and
:func:`detect_polarity_confusion` flags the leg. Without a polarity a choice reply is
read literally (and when places of both signs occur, only neutral ones are read); a
pairwise or checklist reply is read as the direct question's. An ``Answer:`` line is
the answer whatever its words, unless its own verb says the opposite ("Conclusion:
Output (a) is better" is not the reverse leg's answer). Verdict tags with an order
(``[[A>B]]``) name both: the winner on the direct leg, the loser on the reverse leg.

**Span.** ``ParseResult.span`` is where the answer was read, ``[start, end)`` in the
reply as given, tight around what was read ("A, C" of "Answer: A, C"; "a" of "Output
(a) is better"), for the answer's probability from token log-probabilities. It is None
on failure and when the labels were read from more than one place.

**Scores, rankings, reviews.** The other tasks' readers are stages of this package too:
:func:`read_score` and :func:`read_aspect_scores` read the score a rating's reply
declares, strictly (``_scores``; :func:`expected_score` weighs the scores the judge could
have written there), ``_ranking`` a ranking, ``_review`` a review form. All of them find
JSON with the one scanner (``_json``: the last values first, bounded), and a place that
stands in a quotation of the item (a declared format's place, a score's declaration, a
ranking, a review's object) is the item's by one rule
(``prin_guard._prompting._quotes.quoted_places``).

**Cost.** Parsing is linear in the reply's length (plus one pass over the item's labels,
texts and echo), whatever the number of candidates. Patterns are compiled once, on first
use (:class:`_Pattern`: importing the parser compiles nothing), and match any
*label-shaped* token; whether it is a label is a dict lookup. There is no per-label-set
pattern and no cache per label set. Candidate texts are found through a dict from
normalised text to label, only at token boundaries and for texts of at most
``MAX_TEXT_TOKENS`` tokens. Forms that repeat are kept from rescanning the text: runs of
labels are matched possessively, a sentence's answer is looked for in at most 1,000
characters, claims look at most a few hundred characters around them, at most
``MAX_JSON_TRIES`` JSON objects (the last ones) are decoded (and at most 64 places
fail to), and "all" and "all except
B" are kept as the labels left out until the result is built. Copies are found through
sets of the echo's word runs and pieces, built once per echo (cached: the legs of an item
share its echo, the items of a shape their prompt frame) and only when a run or piece of
the reply occurs in it at all; at most ``MAX_SHORT_COPIES`` short ones per reply are
looked up in its text. The polarity-confusion patterns are the only ones built per
vocabulary: once per task and pair of words.

The module reads top-down: the words; the result and the order of the places; the
reply as read (copies blanked, names written as labels); the places an answer is written
(JSON, tags, answer lines, headings); claims and the conclusion; per-candidate statuses;
reading a stretch known to be an answer; label lists and candidate texts; polarity
confusion.
"""

from __future__ import annotations

from prin_guard.reader._confusion import detect_polarity_confusion
from prin_guard.reader._copies import COPY_WORDS, MAX_SHORT_COPIES, detect_echo
from prin_guard.reader._evidence import ParseResult
from prin_guard.reader._json import MAX_JSON_TRIES
from prin_guard.reader._read import parse_reply
from prin_guard.reader._scores import (
    ScoreReading,
    ScoreStatus,
    expected_score,
    read_aspect_scores,
    read_score,
)
from prin_guard.reader._text import MAX_TEXT_TOKENS

__all__ = [
    "COPY_WORDS",
    "MAX_JSON_TRIES",
    "MAX_SHORT_COPIES",
    "MAX_TEXT_TOKENS",
    "ParseResult",
    "ScoreReading",
    "ScoreStatus",
    "detect_echo",
    "detect_polarity_confusion",
    "expected_score",
    "parse_reply",
    "read_aspect_scores",
    "read_score",
]
