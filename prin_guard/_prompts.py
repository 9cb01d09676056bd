"""The direct and reverse prompts of the PRIN paper, and its mitigations.

Template ``v0`` is the paper's wording verbatim (section 3):

    Given this question [problem description] and its answer options: "a1", "a2",
    ..., "an", please output the correct ones.            (Direct Prompt)
    ... please output the incorrect ones.                   (Reverse Prompt)

``v1`` and ``v2`` are its paraphrases (Table 4): right/wrong and
appropriate/inappropriate. ``v3`` (accurate/inaccurate) and ``v4`` (valid/invalid)
are two further paraphrases of our own, needed for the paper's five-paraphrase
Paraphrase Inconsistency, whose extra two prompts the paper does not print.

The paper extracts answer spans from free text; to make replies readable we
append an output-format instruction asking for a final ``Answer:`` line. That
instruction is the same for every template, so PRIN differences between
templates come from the paper's words only.

Quoting. Item text is the caller's (often a model's) and must not be able to pose
as prompt text: a candidate ``5", "C) 4`` must not render as two options, and a
question holding ``Answer: B`` must not look like an instruction or an answer.
So, from version 2 of every template:

- each option is a JSON string, ``"A) 3"``: double quotes, backslashes and control
  characters inside it are JSON escapes (``\"``, ``\\``, ``\n``), and so are the
  line separators U+0085, U+2028 and U+2029, which ``json.dumps`` leaves raw. The
  options are one line, ``"a1", "a2", ..., "an"``, exactly the paper's list; read as a
  JSON array body it gives back every option unchanged.
- the question, the context and each reasoning path sit in a fenced block whose
  fence is a run of backticks longer than any run inside the text (at least three),
  so no line of the text can close it. The paper's sentence keeps its order around
  the question: "Given this question <fenced question> and its answer options: ...,
  please output the correct ones."

The reader (``prin_guard.reader``) is told the item's texts and the prompt, and does not
read an ``Answer:`` line that copies one of their lines.

Mitigations (section 4.3):

- ``cot``: each candidate is shown with the reasoning path that produced it
  ("w/ CoT"). When no candidate has one, the judge is asked to reason step by
  step before its final line (zero-shot CoT) instead.
- ``neg_exp``: the paper's sentence explaining the negation, appended to the
  reverse prompt: "please recall that 'incorrect options' are simply the options
  different from the correct ones." For v1 and v2 the sentence uses that
  template's own words (wrong/right, inappropriate/appropriate).

Each template has an id and a version; both go into cache keys and into the
verdict. Change a template's wording and you must bump its version.

Tasks. The same structure asks the other tasks' questions, the direct and the reverse
prompt differing only in the task's pair of words:

- ``pairwise`` (template ``pairwise``: better/worse): "Given this instruction <fenced>
  and two responses to it: Response A <fenced>, Response B <fenced>" and, on a line of its
  own after everything the legs share, "Now please output the better one." (version 2:
  see :data:`PromptLayout`). The judge answers ``Answer: A``, ``Answer: B`` or ``Answer: tie``
  (neither is better; on the reverse leg, neither is worse). A tie is read as both
  responses on the direct leg and neither on the reverse leg, so a consistent tie has
  PRIN 0.
- ``checklist`` with criteria (template ``criteria``: meets/fails to meet): "Given
  this response <fenced> [to this question <fenced>] and these criteria: "A) ...",
  ...." then "Now please output the criteria it meets." With claims (template
  ``claims``: support/do not support): "Given these sources <fenced> and this response
  <fenced> and these claims made in it: "A) ...", ...." then "Now please output the
  claims the sources support."

The negation explanation and the zero-shot CoT instruction are the same sentences in
each task's words. A template of your own is a :class:`Template` (in Python, or as a
JSON object ``{"id", "version", "task", "positive", "negative", "noun"}`` wherever
options are read: the command line, the service, a config file); its words go into the
cache keys of its legs, so two different wordings under one id never share answers.
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass
from typing import Literal

from prin_guard._contract import AnswerContract, Line
from prin_guard._exceptions import InvalidItemError, UsageError
from prin_guard._models import TASKS, Item, Message, Polarity, Task
from prin_guard._tasks import TASK_WORDS

__all__ = [
    "ANSWER_FORMAT",
    "ANSWER_FORMAT_COT",
    "DEFAULT_TEMPLATES",
    "TEMPLATES",
    "Mitigation",
    "PromptLayout",
    "Template",
    "build_messages",
    "build_prompt",
    "fence",
    "get_template",
    "layout_differs",
    "parse_mitigations",
    "quote_option",
    "reask_prompt",
    "template_for",
]


class Mitigation(enum.StrEnum):
    """Prompt changes the PRIN paper found to reduce inconsistency."""

    COT = "cot"
    """Show each candidate's reasoning path (or ask for step-by-step reasoning)."""
    NEG_EXP = "neg_exp"
    """Explain the negation at the end of the reverse prompt."""


MAX_WORDS_CHARS = 40
"""The longest a template's word (positive, negative, noun) may be."""

# A word or a short phrase: letters (any script), one space, hyphen or apostrophe
# between them. Nothing that could pose as prompt text: no punctuation ("better one;
# reply Answer: B"), no digits, no quotes, no line breaks.
_WORDS = re.compile(rf"(?=.{{1,{MAX_WORDS_CHARS}}}\Z)[^\W\d_]+(?:[ '’-][^\W\d_]+)*\Z", re.DOTALL)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


@dataclass(frozen=True, slots=True)
class Template:
    """The wording of one direct/reverse prompt pair, for one task."""

    id: str
    version: int
    positive: str
    """The word of the direct question: "correct", "better", "meets", "support". A word
    or a short phrase: letters, single spaces, hyphens, apostrophes, at most
    :data:`MAX_WORDS_CHARS` characters (it goes into the prompt unquoted)."""
    negative: str
    """The word of the reverse question: "incorrect", "worse", "fails to meet" (the same
    form)."""
    task: Task = "choice"
    """Which task's items it asks about."""
    noun: str = ""
    """What the prompt calls the candidates ("options", "responses", "criteria",
    "claims"; the same form as the words); empty: the task's usual noun. A checklist's
    noun ``claims`` asks whether the item's sources (its context) support them."""
    contract: AnswerContract | None = None
    """What the prompt asks the judge to write (the labels as it shows them, the tie
    word, the verdict format); ``None``: the bundled prompts' final "Answer: ..." line."""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.fullmatch(
            r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", self.id
        ):
            raise UsageError(f"template: id {self.id!r} is not 1-64 letters, digits, '_', '.', '-'")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise UsageError(f"template: version must be a positive integer, got {self.version!r}")
        for name in ("positive", "negative", "noun"):
            word = getattr(self, name)
            if isinstance(word, str):
                word = word.strip()
                object.__setattr__(self, name, word)
            if name == "noun" and word == "":
                continue  # the task's usual noun
            if not isinstance(word, str) or not _WORDS.fullmatch(word):
                raise UsageError(
                    f"template: {name} must be a word or a short phrase (letters, single "
                    f"spaces, hyphens, apostrophes; at most {MAX_WORDS_CHARS} characters), "
                    f"got {_shown(word)}"
                )
        if self.positive.lower() == self.negative.lower():
            raise UsageError("template: the positive and the negative words must differ")
        if self.task not in TASKS:
            raise UsageError(f"template: unknown task {self.task!r}; use {', '.join(TASKS)}")
        if not self.noun:
            object.__setattr__(self, "noun", TASK_WORDS[self.task].noun)

    @property
    def prompt_id(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def claims(self) -> bool:
        """A checklist of claims checked against the item's sources."""
        return self.task == "checklist" and self.noun == "claims"

    @property
    def answer_contract(self) -> AnswerContract:
        """The contract the reader reads a reply with: the template's own, else the
        bundled prompts' final line "Answer: ..." with the item's labels ("Answer: tie"
        for a pair's tie)."""
        if self.contract is not None:
            return self.contract
        return AnswerContract(
            tie="tie" if self.task == "pairwise" else None, format=Line(prefix="Answer:")
        )

    def word(self, polarity: Polarity) -> str:
        return self.positive if polarity is Polarity.DIRECT else self.negative

    @property
    def builtin(self) -> bool:
        """One of prin-guard's own templates (its words are fixed by its id and version)."""
        return TEMPLATES.get(self.id) == self


TEMPLATES: dict[str, Template] = {
    t.id: t
    for t in (
        # Version 2: options as JSON strings, question, context and reasoning fenced.
        Template("v0", 2, "correct", "incorrect"),
        Template("v1", 2, "right", "wrong"),
        Template("v2", 2, "appropriate", "inappropriate"),
        # Two more paraphrases for the paper's Paraphrase Inconsistency (section 4.4),
        # which needs five direct prompts; the paper had GPT-4 write its two extra
        # ones and does not print them, so these are ours.
        Template("v3", 2, "accurate", "inaccurate"),
        Template("v4", 2, "valid", "invalid"),
        # The other tasks, in the same structure (ours).
        # Version 2: what the legs share first (the item, the candidates, the reasoning
        # paths), each leg's own instruction last, for providers' prompt caches.
        Template("pairwise", 2, "better", "worse", task="pairwise"),
        Template("criteria", 2, "meets", "fails to meet", task="checklist"),
        Template("claims", 2, "support", "do not support", task="checklist", noun="claims"),
    )
}

DEFAULT_TEMPLATES: dict[str, str] = {
    "choice": "v0",
    "pairwise": "pairwise",
    "checklist": "criteria",
}
"""The template a task is asked in when the options name none."""


ANSWER_FORMAT = (
    'Reply with one line: "Answer: " followed by the letters of those options, '
    'separated by commas, or "Answer: none" if there are none.'
)
ANSWER_FORMAT_COT = (
    "Let's think step by step about each option. Then finish with one line: "
    '"Answer: " followed by the letters of those options, separated by commas, '
    'or "Answer: none" if there are none.'
)


def get_template(template: str | Template) -> Template:
    """Look a template up by id (``v0``, ``pairwise``, ``claims``, ...), or pass a Template
    through."""
    if isinstance(template, Template):
        return template
    try:
        return TEMPLATES[template]
    except KeyError:
        known = ", ".join(sorted(TEMPLATES))
        raise UsageError(f"template: unknown template {template!r}; known: {known}") from None


def template_for(template: str | Template | None, item: Item) -> Template:
    """The template ``item`` is asked in: ``template``, or its task's default.

    Raises :class:`~prin_guard.InvalidItemError` (naming ``task``) when the template is
    another task's, and (naming ``context``) when claims have no sources to check.
    """
    chosen = get_template(DEFAULT_TEMPLATES[item.task] if template is None else template)
    if chosen.task != item.task:
        raise InvalidItemError(
            "task",
            f"the item is a {item.task} item; the guard's template {chosen.id!r} asks "
            f"{chosen.task} questions (set no template for the task's default)",
        )
    if chosen.claims and not item.context:
        raise InvalidItemError(
            "context",
            "the claims template checks claims against sources: give them as the context",
        )
    return chosen


def parse_mitigations(mitigations: object) -> tuple[Mitigation, ...]:
    """Validate and normalise mitigations (``"neg-exp"`` is accepted for ``neg_exp``)."""
    if isinstance(mitigations, str | Mitigation):
        mitigations = (mitigations,)
    if not isinstance(mitigations, list | tuple | set | frozenset):
        raise UsageError("mitigations: expected a list of 'cot' and 'neg_exp'")
    out: set[Mitigation] = set()
    for value in mitigations:
        try:
            out.add(Mitigation(str(getattr(value, "value", value)).replace("-", "_")))
        except ValueError:
            known = ", ".join(m.value for m in Mitigation)
            raise UsageError(f"mitigations: unknown mitigation {value!r}; known: {known}") from None
    return tuple(sorted(out, key=lambda m: m.value))


def _neg_exp_sentence(template: Template) -> str:
    """The paper's explanation of the negation, in the template's words."""
    if template.task == "choice":
        return (
            f"Please recall that '{template.negative} options' are simply the options "
            f"different from the {template.positive} ones."
        )
    if template.task == "pairwise":
        return (
            f"Please recall that 'the {template.negative} one' is simply the response "
            f"different from the {template.positive} one."
        )
    return (
        f"Please recall that the {template.noun} {_subject(template)} "
        f"{template.negative} are simply the {template.noun} other than the ones "
        f"{_subject(template)} {template.positive}."
    )


def _subject(template: Template) -> str:
    return "the sources" if template.claims else "it"


_BACKTICKS = re.compile(r"`+")
# Line breaks that json.dumps(ensure_ascii=False) leaves raw but str.splitlines()
# (and some tokenizers) treat as new lines.
_RAW_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def quote_option(label: str, text: str) -> str:
    """One option as the prompt shows it: the JSON string ``"A) text"``, on one line."""
    quoted = json.dumps(f"{label}) {text}", ensure_ascii=False)
    for raw, escaped in _RAW_BREAKS.items():
        quoted = quoted.replace(raw, escaped)
    return quoted


def fence(text: str) -> str:
    """``text`` in a fenced block that no line of it can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    bar = "`" * max(3, longest + 1)
    return f"{bar}\n{text}\n{bar}"


def _answer_format(template: Template, polarity: Polarity, cot: bool) -> str:
    if template.task == "choice":
        return ANSWER_FORMAT_COT if cot else ANSWER_FORMAT
    if template.task == "pairwise":
        line = (
            '"Answer: " followed by the letter of that response, or "Answer: tie" if '
            f"neither is {template.word(polarity)}."
        )
    else:
        line = (
            f'"Answer: " followed by the letters of those {template.noun}, separated by '
            'commas, or "Answer: none" if there are none.'
        )
    if cot:
        return (
            f"Let's think step by step about each of the {template.noun}. Then finish with "
            f"one line: {line}"
        )
    return f"Reply with one line: {line}"


PromptLayout = Literal["template", "shared_first"]
"""Where a prompt puts what a verdict's legs share (``GuardOptions.prompt_layout``).

``template``: each template's own layout. The task templates (``pairwise``,
``criteria``, ``claims``) put what the legs share first, byte for byte (the context,
the item, the candidates, the reasoning paths of ``cot``) and each leg's own instruction
last (its word, the negation's explanation, the answer format), so that a provider's
prompt cache serves the shared part of every leg but the first. The paper's choice
templates (``v0`` to ``v4``) keep the paper's sentence, "Given this question ... and its
answer options: ..., please output the correct ones.", with the reasoning paths after it.
``shared_first``: the choice templates too (the sentence ends with the options; "Now please
output the correct ones." comes after the reasoning paths).
"""


def _shared_first(template: Template, layout: PromptLayout) -> bool:
    return layout == "shared_first" or template.task != "choice"


def layout_differs(template: Template, layout: PromptLayout) -> bool:
    """Whether ``layout`` asks ``template``'s prompts in another layout than its own."""
    return _shared_first(template, layout) != _shared_first(template, "template")


def build_prompt(
    item: Item,
    polarity: Polarity,
    template: Template,
    mitigations: tuple[Mitigation, ...],
    *,
    layout: PromptLayout = "template",
) -> str:
    """The text of one leg's question."""
    cot = Mitigation.COT in mitigations
    shared_first = _shared_first(template, layout)
    parts: list[str] = []
    word = template.word(polarity)
    # what the legs share (the item), then the leg's own question: one sentence in the
    # paper's layout, two with what is shared first
    ask = f"Now please output the {word} one." if template.task == "pairwise" else ""
    if template.task == "pairwise":
        if item.context:
            parts.append(f"Context:\n{fence(item.context.strip())}\n")
        shown = "\n".join(f"Response {c.label}:\n{fence(c.text.strip())}" for c in item.candidates)
        given = (
            f"Given this instruction\n{fence((item.question or '').strip())}\nand two "
            f"responses to it:\n{shown}"
        )
        if shared_first:
            parts.append(given)
        else:
            parts.append(f"{given}\nplease output the {word} one.")
    elif template.task == "checklist":
        options = ", ".join(quote_option(c.label or "", c.text) for c in item.candidates)
        response = fence((item.response or "").strip())
        question = f"\nto this question\n{fence(item.question.strip())}" if item.question else ""
        if template.claims:
            given = (
                f"Given these sources\n{fence((item.context or '').strip())}\nand this "
                f"response\n{response}{question}\nand these {template.noun} made in it: "
                f"{options}"
            )
            ask = f"the {template.noun} the sources {word}"
        else:
            if item.context:
                parts.append(f"Context:\n{fence(item.context.strip())}\n")
            given = (
                f"Given this response\n{response}{question}\nand these {template.noun}: {options}"
            )
            ask = f"the {template.noun} it {word}"
        parts.append(f"{given}." if shared_first else f"{given}, please output {ask}.")
        ask = f"Now please output {ask}."
    else:
        options = ", ".join(quote_option(c.label or "", c.text) for c in item.candidates)
        if item.context:
            parts.append(f"Context:\n{fence(item.context.strip())}\n")
        given = (
            f"Given this question\n{fence((item.question or '').strip())}\nand its answer "
            f"options: {options}"
        )
        parts.append(f"{given}." if shared_first else f"{given}, please output the {word} ones.")
        ask = f"Now please output the {word} ones."
    with_reasoning = [c for c in item.candidates if c.reasoning]
    if cot and with_reasoning:
        kind = TASK_WORDS[template.task].kind
        parts.append(f"\nEach {kind} was derived through the reasoning path below.")
        for candidate in item.candidates:
            option = quote_option(candidate.label or "", candidate.text)
            if candidate.reasoning:
                parts.append(f"\n{option}\nReasoning:\n{fence(candidate.reasoning.strip())}")
            else:
                parts.append(f"\n{option}\nReasoning: (not given)")
        parts.append("")
    if shared_first:
        parts.append(ask)
    if polarity is Polarity.REVERSE and Mitigation.NEG_EXP in mitigations:
        parts.append(_neg_exp_sentence(template))
    parts.append(_answer_format(template, polarity, cot))
    return "\n".join(parts)


def reask_prompt(template: Template, item: Item, polarity: Polarity) -> str:
    """The second question put to a judge whose reply could not be read: state only the
    final answer, in the form the template asks for."""
    contract = template.answer_contract
    form = contract.format
    labels = contract.labels or item.labels
    if template.builtin or form.kind == "line":
        prefix = getattr(form, "prefix", "Answer:")
        if template.task == "pairwise":
            how = f'"{prefix} " followed by the letter of the {template.word(polarity)} one, or '
            how += f'"{prefix} {contract.tie or "tie"}" if neither is {template.word(polarity)}'
        else:
            how = f'"{prefix} " followed by the letters, separated by commas, or "{prefix} none"'
        return (
            "Your reply does not end with a final answer I can read. Reply with one line only: "
            f"{how}."
        )
    shown = ", ".join(f'"{label}"' for label in labels)
    tie = f', or "{contract.tie}" for a tie' if contract.tie else ""
    if form.kind == "tag":
        opening, closing = getattr(form, "open", "[["), getattr(form, "close", "]]")
        forms = ", ".join(f'"{opening}{label}{closing}"' for label in labels)
        tie_tag = f', or "{opening}{contract.tie}{closing}"' if contract.tie else ""
        how = f"your final verdict only, as one of {forms}{tie_tag}"
    elif form.kind == "first_line":
        how = f"one line only: one of {shown}{tie}"
    elif form.kind == "scores":
        how = f"one line only: a score for each of {shown}, in that order, separated by a space"
    elif form.kind == "json_field":
        how = f'a JSON object only, with the field "{getattr(form, "key", "answer")}" naming '
        how += f"one of {shown}{tie}"
    elif form.kind == "json_ranking":
        how = f"a JSON list only, ranking {shown} with rank 1 the best"
    elif form.kind == "ordering":
        how = f"one line only, ordering {shown} with '>' and '='"
    else:
        how = f"one line only, naming your final answer among {shown}{tie}"
    return f"Your reply does not state a final answer I can read. Reply with {how}."


def build_messages(
    item: Item,
    polarity: Polarity,
    template: Template,
    mitigations: tuple[Mitigation, ...],
    *,
    layout: PromptLayout = "template",
) -> list[Message]:
    """The conversation sent to the judge for one leg."""
    prompt = build_prompt(item, polarity, template, mitigations, layout=layout)
    return [{"role": "user", "content": prompt}]
