"""Places an answer is written in a fixed form: answer tags, verdict tags (MT-Bench,
Arena-Hard, Prometheus), answer lines and headings.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from prin_guard.reader._answers import _item, _label_and_text, _read_answer, _read_block
from prin_guard.reader._drawn import names_any
from prin_guard.reader._evidence import _admit, _Context, _Found, _Reading, _signed, _tie_free
from prin_guard.reader._exclusion import heading_sign
from prin_guard.reader._groups import sided_groups
from prin_guard.reader._revisions import Revisions
from prin_guard.reader._text import _VERB_ADJ, _norm, _Pattern
from prin_guard.reader._vocab import _ANSWER_WORDS, _name_sign

# Words a heading may have besides its polarity word ("The incorrect options:"). Not
# "is" or "are": "The correct answer is:" is a sentence, read as one.
_HEADING_WORDS = _ANSWER_WORDS | {
    "the", "my", "so", "thus", "hence", "therefore", "not", "of", "list",
    "all", "only", "one", "choice", "candidate", "which", "response", "responses",
    "criteria", "criterion", "claims", "claim", "requirements", "requirement", "items",
    "statements", "to", "by", "sources", "it", "do", "does",
}  # fmt: skip
# A pronoun and its verb before a heading's words: "These are not valid: B, D"
_PRONOUN_HEAD = (("these", "are"), ("those", "are"), ("they", "are"), ("this", "is"))


# A relative clause in a heading: "The options that are incorrect: B, D", "The ones
# which are not capitals: B, D"
_RELATIVE = (("that", "are"), ("which", "are"), ("that", "is"), ("which", "is"))


def _relative_dropped(words: list[str]) -> list[str]:
    """A heading's words without the relative pronoun and verb after its noun ("the
    options that are incorrect": "the options incorrect")."""
    for i in range(1, len(words) - 2):
        if (words[i], words[i + 1]) in _RELATIVE:
            return words[:i] + words[i + 2 :]
    return words


@functools.lru_cache(maxsize=64)
def _heading_words(noun: str) -> frozenset[str]:
    """The words a heading may have besides its polarity word, with the question's own
    noun ("Prime numbers: 11, 17" on "Which of these numbers are prime?")."""
    if not noun:
        return _HEADING_WORDS
    forms = {noun, noun + "s", noun + "es"}
    if noun.endswith("y"):
        forms.add(noun[:-1] + "ies")
    return _HEADING_WORDS | forms


# Horizontal whitespace only at line starts: a class that also takes newlines would
# rescan every following blank line from every line start (quadratic). Besides line
# starts, an answer may follow the end of a sentence: "C is right. Answer: C".
_ANSWER_LINE = _Pattern(
    r"(?:^(?:[^\S\n]|[>*#_`-])*+|(?<=[.!?])[^\S\n]++[*_`]*+)(?:(?:my|our|the)[^\S\n]++)?"
    r"(?:(?:corrected|revised|updated|amended|new)[^\S\n]++)?"
    r"(?:final(?=[^\S\n*_`]*+[*_`]*+[^\S\n]*+[:：=\-])|(?:final[^\S\n]++)?(?:answer(?:s|\(s\))?"
    r"|verdict|decision|judge?ment|conclusion|choice|preference|result|outcome|grade|picks?"
    r"|selections?|selected|chosen))"
    # a dash before a digit is the value's minus sign ("The answer is -5."), not a colon
    r"\b[^\S\n*_`]*+[*_`]*+[^\S\n]*+(?:(?:is|are)[^\S\n]*+)?(?:[:：=]|-(?!\d))[^\S\n]*+"
    r"(?P<rest>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)

# An answer's heading alone on its line, the answer under it: "### Final Answer\n**B.
# 102**", "## Corrected Answer", a bold "**Answer**" line (its emphasis already written
# over by spaces).
_ANSWER_HEADING = _Pattern(
    r"^[^\S\n]*(?:#{1,6}[^\S\n]*)?[*_]*+(?:(?:my|our|the)[^\S\n]++)?"
    r"(?:(?:corrected|revised|updated|amended|new)[^\S\n]++)?(?:final[^\S\n]++)?"
    r"answers?[^\S\n*_]*+[*_]*+[^\S\n]*+(?P<rest>)$",
    re.IGNORECASE | re.MULTILINE,
)

# A heading starts a line, or follows another's list or a sentence on its line ("Correct:
# A | Incorrect: B", "Yes: A, C. No: B, D.")
# A CSV line headed by a side, its labels after it: "incorrect,C,D"
_CSV_HEADING = _Pattern(
    r"^[^\S\n]*(?P<head>[A-Za-z]+(?:[^\S\n][A-Za-z]+)?)[^\S\n]*,[^\S\n]*"
    r"(?P<rest>[A-Z](?:[^\S\n]*,[^\S\n]*[A-Z])*)[^\S\n]*$",
    re.MULTILINE,
)
# Its head is up to eight words ("So the numbers that are not prime: B, D"), may carry an
# aside in brackets ("Wrong (each has a third divisor): 9, 15") and an arrow for its colon
# ("Not prime → B, D").
_HEADING = _Pattern(
    r"(?:^|(?<=[|;])|(?<=[.!?][^\S\n]))(?:[^\S\n]|[>*#_`-])*+(?P<head>[A-Za-z]++(?:[^\S\n]++[A-Za-z]++){0,7}+)(?:\(s\))?[*_`]*+"
    r"(?:[^\S\n]*+(?P<aside>\([^()\n]{1,120}\)))?"
    r"[^\S\n]*+(?:[:：]|(?P<arrow>→|⇒|->|=>))[^\S\n]*+(?P<rest>(?:[^\n|;.!?]|[.!?](?!\s)"
    # a semicolon between labels alone: "Incorrect: A; C; E" (not "A; Incorrect: B")
    r"|;(?=[^\S\n]*+[(\[]?[A-Z][)\]]?[^\S\n]*+(?:;|[.!]?[^\S\n]*+$)))*+)",
    re.MULTILINE,
)


_TAG = _Pattern(
    r"<\s*(?P<tag>[A-Za-z][\w-]{0,40})\s*>(?P<body>[^<]*)<\s*/\s*(?P=tag)\s*>", re.IGNORECASE
)


# MT-Bench [[A]], [[C]] (a tie); Arena-Hard [[A>>B]], [[A=B]]; a rating [[5]] is none.
_VERDICT = _Pattern(
    r"\[\[\s*(?P<x>[A-Za-z0-9]{1,4})\s*(?:(?P<op>>>|>|=|<<|<|≫|≪)\s*(?P<y>[A-Za-z0-9]{1,4})\s*)?\]\]"
)


# Prometheus: "[RESULT] A"
_RESULT = _Pattern(r"\[RESULT\][^\S\n]*:?(?P<rest>[^\n]*)", re.IGNORECASE)


def _read_tags(text: str, ctx: _Context) -> _Found:
    """``<answer>A, C</answer>`` and tags named in either polarity (``<incorrect>``)."""
    out = _Found()
    for match in _TAG.finditer(text):
        named = _name_sign(match.group("tag"), ctx)
        if named is None or not named[1]:
            continue
        said = _read_answer(text, match.start("body"), match.end("body"), ctx)
        if said is not None:
            out.said.append((_signed(named[0] or said[0], said[1], ctx), said[1]))
    return _admit(out, ctx.leg)


def _read_verdicts(text: str, ctx: _Context) -> tuple[int, _Reading] | None:
    """Verdict tags (``[[A]]``, ``[[A>B]]``, ``[RESULT] A``): where the last one is and
    what they say; a void reading when they disagree (no verdict)."""
    readings: list[tuple[int, _Reading]] = []
    for match in _VERDICT.finditer(text):
        reading = _verdict(match, ctx)
        if reading is not None:
            readings.append((match.start(), reading))
    for match in _RESULT.finditer(text):
        said = _read_answer(text, match.start("rest"), match.end("rest"), ctx)
        if said is not None and not (said[0] and said[0] == -ctx.leg):
            readings.append((match.start(), said[1]))
    if not readings:
        return None
    readings.sort(key=lambda place: place[0])
    if len({_tie_free(reading, ctx) for _, reading in readings}) > 1:
        return readings[-1][0], _Reading(frozenset(), None, void=True)
    return readings[-1]


def _verdict(match: re.Match[str], ctx: _Context) -> _Reading | None:
    """One verdict tag: ``[[A]]`` names A (the answer to the question asked); for a pair,
    ``[[C]]`` and ``[[A=B]]`` are a tie and ``[[A>B]]`` names the winner on the direct
    leg and the loser on the reverse leg."""
    first = ctx.keys.get(match.group("x").upper())
    op = match.group("op")
    if op is None:
        if first is not None:
            return _Reading(frozenset({first}), match.span("x"))
        if ctx.pair and match.group("x").upper() == "C":
            return _Reading(frozenset(), match.span("x"))  # MT-Bench's tie
        return None
    second = ctx.keys.get(match.group("y").upper())
    if not ctx.pair or first is None or second is None or first == second:
        return None
    if op == "=":
        return _Reading(frozenset(), match.span())
    if op in ("<", "<<", "≪"):
        first, second = second, first
        winner, loser = match.span("y"), match.span("x")
    else:
        winner, loser = match.span("x"), match.span("y")
    return (
        _Reading(frozenset({first}), winner)
        if ctx.leg >= 0
        else _Reading(frozenset({second}), loser)
    )


# LaTeX's box, the way math models answer: "\boxed{A}", "\boxed{\text{E}}", "\boxed{A, C}"
_BOXED = _Pattern(
    r"\\boxed\s*\{\s*(?:\\(?:text|textbf|mathrm|mathbf)\s*\{)?(?P<rest>[^{}\n]{1,200})\}?\s*\}"
)


# What makes a box no answer: a negation right before it ("Not \boxed{48}", "\boxed{52},
# not \boxed{48}", "is not \(\boxed{48}\)"; not "the criteria that are not met are
# \boxed{C, D}"), or a verb after it that makes it a subject ("\boxed{56} is what I'd get
# for 14 x 4", "\boxed{48} would be 12 x 4")
_BOX_NEGATED = _Pattern(
    r"(?<![\w-])(?:not|no|never|\w+n[’']t|rather\s+than|instead\s+of|nor(?:\s+(?:is|are|was))?)"
    r"[\s$\\(\[*_`]*$",
    re.IGNORECASE,
)
_BOX_SUBJECT = _Pattern(
    r"[\s$\\)\]]*(?:(?:is|was)\s+(?:what|for|from|if|when|how|only\s+if)|would\s+be|could\s+be"
    r"|might\s+be|comes?\s+from|belongs?\s+to|applies\s+to)(?![\w-])",
    re.IGNORECASE,
)
_NEGATION_WINDOW = 40


def _box_said_otherwise(text: str, box: re.Match[str]) -> bool:
    """Whether a LaTeX box is negated or is the subject of a statement (see
    :data:`_BOX_NEGATED`): no answer of the reply's."""
    if _BOX_NEGATED.search(text, max(0, box.start() - _NEGATION_WINDOW), box.start()):
        return True
    return _BOX_SUBJECT.match(text, box.end()) is not None


# What closes a box's math before the words after it: "\(\boxed{B}\) is wrong"
_BOX_CLOSE = _Pattern(r"[$\\)\]*_]*")


def _box_side(text: str, box: re.Match[str], ctx: _Context) -> int | None:
    """The side the sentence a LaTeX box stands in gives it: None when it is negated
    ("not \\boxed{B}", "nor is \\boxed{D}": no answer on either leg), else the sign of
    what is said of it after it ("\\boxed{(B) learn language} is not correct" -1,
    "\\boxed{C} is correct" +1), 0 when nothing is."""
    if _BOX_NEGATED.search(text, max(0, box.start() - _NEGATION_WINDOW), box.start()):
        return None
    close = _BOX_CLOSE.match(text, box.end())
    verb = _VERB_ADJ.match(text, close.end() if close is not None else box.end())
    return ctx.vocab.verb_sign(verb) if verb is not None else 0


def _box_other_side(text: str, box: re.Match[str], ctx: _Context) -> bool:
    """Whether a box is no answer of the leg's: negated, or put on the other side of its
    question ("\\boxed{D} is wrong" on the direct leg; on a leg not known, any box said
    to be wrong)."""
    side = _box_side(text, box, ctx)
    return side is None or side == -ctx.leg != 0 or (not ctx.leg and side < 0)


# What joins two boxes as alternatives: "\\boxed{(B) smile} or \\boxed{(D) conversation}",
# "$\\boxed{A}$, or $\\boxed{C}$", "\\boxed{B} encourage or \\boxed{E} tell story" (the
# first box's own text after it)
_BOX_OR = _Pattern(
    r"[\s$\\)\]*_]*(?P<gloss>[^\n{}\\]{0,80}?)[\s,]*(?<![\w-])(?:or|and/or)[\s$\\(\[*_]*",
    re.IGNORECASE,
)


def _boxes_or(
    text: str, boxes: list[re.Match[str]], taken: re.Match[str], reading: _Reading, ctx: _Context
) -> _Reading:
    """The boxes joined to ``taken`` by "or" before it, read with it: a hedge between
    them ("the answer is \\boxed{(B) smile} or \\boxed{(D) conversation}"), all of them,
    weak; ``reading`` when none is. Words between a box and the "or" must be its own
    option's text."""
    labels = set(reading.labels)
    at = boxes.index(taken)
    first = taken
    while at > 0 and (joint := _BOX_OR.fullmatch(text, boxes[at - 1].end(), boxes[at].start())):
        at -= 1
        said = _read_answer(text, boxes[at].start("rest"), boxes[at].end("rest"), ctx)
        if said is None or said[1].inverted or said[0] or _box_side(text, boxes[at], ctx):
            return reading
        gloss = _norm(joint.group("gloss"))
        if gloss and (
            len(said[1].labels) != 1 or gloss != ctx.texts.norm_of(next(iter(said[1].labels)))
        ):
            return reading  # "\\boxed{B} is better than C or \\boxed{E}": no joint
        labels |= said[1].labels
        first = boxes[at]
    if first is taken or reading.inverted:
        return reading
    return _Reading(frozenset(labels), (first.start("rest"), taken.end("rest")), weak=True)


def _boxed_picks(
    text: str, boxes: list[re.Match[str]], taken: re.Match[str], ctx: _Context
) -> _Reading | None:
    """The answer of a reply that boxes options on both sides ("First, a student must
    \\boxed{(C) do mathematics}. ... also \\boxed{(E) begin to study}. ... the choice
    \\boxed{(B) learn language} is not correct."): every box up to ``taken`` that is not
    on the other side, which is what it picked, weak. None (no reading) when a revision
    stands between the picks, a pick is also boxed on the other side, a box reads nothing,
    or, on the reverse leg, boxes said to be on its side come with boxes said nothing of
    (those answer the direct question)."""
    picks: list[tuple[int, frozenset[str]]] = []
    others: set[str] = set()
    for box in boxes:
        if _BOX_SUBJECT.match(text, box.end()) is not None:
            continue  # "\\boxed{56} is what 14 x 4 gives"
        said = _read_answer(text, box.start("rest"), box.end("rest"), ctx)
        if said is None or said[1].inverted or _signed(said[0], said[1], ctx) == -ctx.leg != 0:
            return None
        if _box_other_side(text, box, ctx):
            others |= said[1].labels
        elif box.start() <= taken.start():
            picks.append((_box_side(text, box, ctx) or 0, said[1].labels))
    labels = frozenset(label for _, named in picks for label in named)
    if not picks or labels & others:
        return None
    if ctx.leg < 0 and any(side for side, _ in picks) and not all(side for side, _ in picks):
        return None
    first = next(
        box for box in boxes if box.start() <= taken.start() and not _box_other_side(text, box, ctx)
    )
    if Revisions(text).between(first.start(), taken.end()):
        return None
    return _Reading(labels, (first.start("rest"), taken.end("rest")), weak=True)


def boxed_labels(text: str, ctx: _Context) -> frozenset[str] | None:
    """What every LaTeX box of a reply names together, when each is a plain pick (no side
    said of it, not negated, not a statement's subject, naming some label): the marks of a
    reply that boxes its picks along its reasoning ("you can \\boxed{B} look around ...
    \\boxed{C} take pictures"); else None."""
    labels: set[str] = set()
    for box in _BOXED.finditer(text):
        if _box_side(text, box, ctx) != 0 or _BOX_SUBJECT.match(text, box.end()) is not None:
            return None
        said = _read_answer(text, box.start("rest"), box.end("rest"), ctx)
        if said is None or said[0] or said[1].inverted or not said[1].labels:
            return None
        labels |= said[1].labels
    return frozenset(labels) if labels else None


# The words that lead into an answer line or a box: "The incorrect option is:", "So the
# correct answer is C." just before "Answer: C".
_LEAD_IN = _Pattern(
    r"(?P<adj>[A-Za-z]+)\s+(?:answers?|options?|choices?|ones?)\s+(?:is|are|would\s+be)\b",
    re.IGNORECASE,
)
_LEAD_WINDOW = 300


def _lead_sign(text: str, at: int, ctx: _Context) -> int:
    """The polarity of the words that lead into a place at ``at``: the last "<adjective>
    answer is" in the ``_LEAD_WINDOW`` characters before it, in the last sentence or two
    ("The correct answer is:\n\\[\nAnswer: D" is the direct question's answer)."""
    lo = max(0, at - _LEAD_WINDOW)
    sign = 0
    for match in _LEAD_IN.finditer(text, lo, at):
        sign = ctx.vocab.sign(match.group("adj"))
    return sign


def _answer_line(text: str, ctx: _Context) -> tuple[tuple[int, _Reading] | None, bool]:
    """The last readable "Answer:" line (or "Verdict:", "Conclusion:", ..., or a LaTeX
    box), and where it starts; and whether a line answered the other question in its
    own words ("Conclusion: Output (a) is better" on the reverse leg) or in the words
    that lead into it ("The correct answer is:\n\\boxed{D}" on the reverse leg), which is
    not read."""
    opposite = False
    places = sorted(
        [*_ANSWER_LINE.finditer(text), *_ANSWER_HEADING.finditer(text), *_BOXED.finditer(text)],
        key=lambda match: match.start(),
    )
    boxes = [match for match in places if match.re is _BOXED.compiled]
    sided_after = False  # a box after the place read stands on the other side
    for match in reversed(places):
        if match.re is _BOXED.compiled and _box_other_side(text, match, ctx):
            sided_after = True
            continue  # "Not \\boxed{48}.", "\\boxed{B} is not correct."
        if match.re is _BOXED.compiled and _box_said_otherwise(text, match):
            continue  # "\\boxed{56} is what 14 x 4 gives"
        grouped = sided_groups(text, match.start("rest"), match.end("rest"), ctx)
        if grouped is not None:  # "Decision: A, C, D incorrect; B correct."
            side = ctx.leg or 1
            picked = frozenset(label for label, sign in grouped if sign == side)
            return (match.start(), _Reading(picked, match.span("rest"))), opposite
        if match.group("rest").strip(" \t\r*_`"):
            said = _read_answer(text, match.start("rest"), match.end("rest"), ctx)
        else:
            block = _read_block(text, match.end(), ctx)
            said = block[:2] if block is not None else None
        if said is None:
            continue
        if not said[0] and not ctx.pair:
            said = (_lead_sign(text, match.start(), ctx), said[1])
        if _signed(said[0], said[1], ctx) == -ctx.leg != 0:
            opposite = True
            continue
        sided = match.re is _BOXED.compiled and (
            sided_after or (ctx.leg < 0 and _box_side(text, match, ctx) == ctx.leg)
        )
        if sided and len(boxes) > 1:
            boxed = _boxed_picks(text, boxes, match, ctx)
            if boxed is None:
                return None, opposite
            if boxed.labels != said[1].labels:
                return (match.start(), boxed), opposite
        if match.re is _BOXED.compiled:
            return (match.start(), _boxes_or(text, boxes, match, said[1], ctx)), opposite
        return (match.start(), said[1]), opposite
    return None, opposite


def _read_headings(text: str, ctx: _Context) -> _Found:
    """Lines headed in a polarity's words: "Incorrect: B, D", "Correct answers: A, C",
    "Winner: A", "Not met: B"."""
    return _admit(_headings(text, ctx), ctx.leg)


def _heading_sides(text: str, ctx: _Context, lo: int) -> list[tuple[int, str, int]]:
    """The side each heading from ``lo`` gives the candidates it lists ("Incorrect: B,
    D": B and D, -1), with where: what the concluding part says of them."""
    return [
        (reading.span[0] if reading.span else lo, label, sign)
        for sign, reading in _headings(text, ctx, lo).said
        if sign and not reading.inverted
        for label in reading.labels
    ]


# A heading of its own line, without a colon, over a list: "### Incorrect options",
# "**Wrong options**" (its emphasis already written over by spaces)
_MD_HEADING = _Pattern(
    r"^[^\S\n]*(?:#{1,6}[^\S\n]+[*_]*|\*\*|__)?(?P<head>[A-Za-z]+(?:[^\S\n]+[A-Za-z]+){0,4})"
    r"[*_]*[^\S\n]*:?[*_]*[^\S\n]*$",
    re.MULTILINE,
)


def _headings(text: str, ctx: _Context, lo: int = 0) -> _Found:
    out = _Found()
    placed: list[tuple[int, int, _Reading]] = []  # where each heading stands: in order
    for match in _MD_HEADING.finditer(text, lo):
        words = match.group("head").lower().split()
        sign = ctx.vocab.phrase_sign(words, _HEADING_WORDS)
        block = _read_block(text, match.end(), ctx, texts="whole") if sign else None
        if sign and block is not None:
            placed.append((match.start(), _signed(sign, block[1], ctx), block[1]))
    for match in _HEADING.finditer(text, lo):
        words = match.group("head").lower().split()
        if tuple(words[:2]) in _PRONOUN_HEAD and len(words) > 2:
            words = words[2:]
        words = _relative_dropped(words)
        sign = ctx.vocab.phrase_sign(words, _heading_words(ctx.vocab.noun))
        if not sign and ctx.task == "choice":
            sign = heading_sign(match.group("head"))  # "Eliminated: B, D", "Keep: A, C"
        yes_no = words in (["yes"], ["no"])
        if yes_no:  # "Yes: A, C": the leg's question answered
            sign = (ctx.leg or 1) * (1 if words == ["yes"] else -1)
        if not sign:
            continue
        if (match.group("aside") or match.group("arrow")) and (
            yes_no or not _plain_aside(match.group("aside") or "", ctx)
        ):
            continue  # "Incorrect (though C is debatable): B, D": no heading
        rest = match.group("rest")
        if rest.strip(" \t\r*_`"):
            said = _read_answer(text, match.start("rest"), match.end("rest"), ctx, texts="whole")
        else:
            block = _read_block(text, match.end(), ctx, texts="whole")
            said = block[:2] if block is not None else None
        if said is not None:
            reading = said[1]
            if yes_no and ctx.leg == -1 and ctx.vocab.predicate:
                # on the reverse leg, "Yes: A, C" may answer the question's predicate
                reading = replace(reading, weak=True)
            placed.append((match.start(), _signed(sign, reading, ctx), reading))
    for match in _CSV_HEADING.finditer(text, lo):  # a CSV line "incorrect,C,D"
        sign = ctx.vocab.phrase_sign(match.group("head").lower().split(), _HEADING_WORDS)
        said = _read_answer(text, *match.span("rest"), ctx, texts="none") if sign else None
        if sign and said is not None:
            placed.append((match.start(), _signed(sign, said[1], ctx), said[1]))
    placed.sort(key=lambda place: place[0])
    out.said.extend((sign, reading) for _, sign, reading in placed)
    return out


# Words of an aside that hedge or limit its heading: "Incorrect (probably): B, D"
_ASIDE_HEDGE = _Pattern(
    r"(?<![\w-])(?:maybe|perhaps|probably|possibly|likely|unlikely|sure|unsure|debatable"
    r"|unclear|doubtful|except|but|though|although|if|unless|arguably|think|guess|or)(?![\w-])",
    re.IGNORECASE,
)


def _plain_aside(aside: str, ctx: _Context) -> bool:
    """Whether a heading's aside in brackets only explains it ("(each of these has a
    divisor besides 1 and itself)"): it names no candidate, by label or by text, and
    hedges or limits nothing ("(probably)", "(though C is debatable)")."""
    if _ASIDE_HEDGE.search(aside):
        return False
    return not names_any(aside, frozenset(ctx.labels), ctx)


def _label_line(text: str, ctx: _Context) -> tuple[_Reading | None, bool]:
    """A label and its candidate's text on a line of its own, as the reply's answer
    ("Therefore, the best course of action would be:\n\nB. Ignore your personal
    feelings ...", or "D. Aortic dissection" as the reply's last line after reasoning),
    and whether such a line answered the other question in its lead-in's words.

    Only the reply's last line that starts with a label's mark, alone in its paragraph,
    after a line that is no option's (a listing of the options is no answer), either
    introduced by a line ending in ":" or itself the reply's last line. Its text must be
    its candidate's (:func:`_label_and_text`); another candidate's text there is a
    disagreement. On the reverse leg, only under a lead-in in that leg's words ("The
    incorrect option is:")."""
    lines = _lines(text)
    last = next((i for i in reversed(range(len(lines))) if _option_line(text, lines[i], ctx)), None)
    if last is None:
        return None, False
    lo, hi = lines[last]
    filled = [i for i, (start, end) in enumerate(lines) if text[start:end].strip()]
    at = filled.index(last)
    if at == 0:
        return None, False  # the whole reply, or its first line: read elsewhere
    before = filled[at - 1]
    after = filled[at + 1] if at + 1 < len(filled) else None
    if before == last - 1:
        return None, False  # not alone in its paragraph
    if after is not None and after == last + 1:
        return None, False
    if _option_line(text, lines[before], ctx):
        return None, False  # the last of a listing of the options
    lead = text[slice(*lines[before])].rstrip(" \t\r*_`").endswith(":")
    if not lead and after is not None:
        return None, False
    reading = _label_and_text(text, lo, hi, ctx)
    if reading is None:
        return None, False
    sign = _lead_sign(text, lo, ctx) if lead else 0
    if ctx.leg < 0 and sign != ctx.leg:
        return None, sign == -ctx.leg  # the reverse leg: only in its own words
    if sign == -ctx.leg != 0:
        return None, True
    return reading, False


def _lines(text: str) -> list[tuple[int, int]]:
    """Every line's start and end."""
    out: list[tuple[int, int]] = []
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            out.append((start, len(text)))
            return out
        out.append((start, end))
        start = end + 1


def _option_line(text: str, line: tuple[int, int], ctx: _Context) -> bool:
    """Whether a line starts with a label's mark ("D. Aortic dissection", "- (B) 8")."""
    item = _item(text, *line)
    return item is not None and item.group("n").upper() in ctx.keys
