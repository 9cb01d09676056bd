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

The parser (``_parsing``) is told the item's texts and the prompt, and does not
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
  and two responses to it: Response A <fenced>, Response B <fenced>, please output
  the better one." The judge answers ``Answer: A``, ``Answer: B`` or ``Answer: tie``
  (neither is better; on the reverse leg, neither is worse). A tie is read as both
  responses on the direct leg and neither on the reverse leg, so a consistent tie has
  PRIN 0.
- ``checklist`` with criteria (template ``criteria``: meets/fails to meet): "Given
  this response <fenced> [to this question <fenced>] and these criteria: "A) ...",
  ..., please output the criteria it meets." With claims (template ``claims``:
  support/do not support): "Given these sources <fenced> and these claims made in this
  response <fenced>: "A) ...", ..., please output the claims the sources support."

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

from prin_guard._exceptions import InvalidItemError, UsageError
from prin_guard._models import TASKS, Item, Message, Polarity, Task

__all__ = [
    "ANSWER_FORMAT",
    "ANSWER_FORMAT_COT",
    "DEFAULT_TEMPLATES",
    "NOUNS",
    "TEMPLATES",
    "Mitigation",
    "Template",
    "build_messages",
    "build_prompt",
    "fence",
    "get_template",
    "parse_mitigations",
    "quote_option",
    "template_for",
]


class Mitigation(enum.StrEnum):
    """Prompt changes the PRIN paper found to reduce inconsistency."""

    COT = "cot"
    """Show each candidate's reasoning path (or ask for step-by-step reasoning)."""
    NEG_EXP = "neg_exp"
    """Explain the negation at the end of the reverse prompt."""


@dataclass(frozen=True, slots=True)
class Template:
    """The wording of one direct/reverse prompt pair, for one task."""

    id: str
    version: int
    positive: str
    """The word of the direct question: "correct", "better", "meets", "support"."""
    negative: str
    """The word of the reverse question: "incorrect", "worse", "fails to meet"."""
    task: Task = "choice"
    """Which task's items it asks about."""
    noun: str = ""
    """What the prompt calls the candidates ("options", "responses", "criteria",
    "claims"); empty: the task's usual noun. A checklist's noun ``claims`` asks whether
    the item's sources (its context) support them."""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.fullmatch(
            r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", self.id
        ):
            raise UsageError(f"template: id {self.id!r} is not 1-64 letters, digits, '_', '.', '-'")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise UsageError(f"template: version must be a positive integer, got {self.version!r}")
        for name in ("positive", "negative"):
            word = getattr(self, name)
            if not isinstance(word, str) or not word.strip() or len(word) > 64 or "\n" in word:
                raise UsageError(f"template: {name} must be a word or a short phrase")
        if self.positive.strip().lower() == self.negative.strip().lower():
            raise UsageError("template: the positive and the negative words must differ")
        if self.task not in TASKS:
            raise UsageError(f"template: unknown task {self.task!r}; use {', '.join(TASKS)}")
        if not isinstance(self.noun, str) or len(self.noun) > 64 or "\n" in self.noun:
            raise UsageError("template: noun must be a word or a short phrase")
        if not self.noun:
            object.__setattr__(self, "noun", _NOUN[self.task])

    @property
    def prompt_id(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def claims(self) -> bool:
        """A checklist of claims checked against the item's sources."""
        return self.task == "checklist" and self.noun == "claims"

    def word(self, polarity: Polarity) -> str:
        return self.positive if polarity is Polarity.DIRECT else self.negative

    @property
    def builtin(self) -> bool:
        """One of prin-guard's own templates (its words are fixed by its id and version)."""
        return TEMPLATES.get(self.id) == self


_NOUN: dict[str, str] = {"choice": "options", "pairwise": "responses", "checklist": "criteria"}

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
        Template("pairwise", 1, "better", "worse", task="pairwise"),
        Template("criteria", 1, "meets", "fails to meet", task="checklist"),
        Template("claims", 1, "support", "do not support", task="checklist", noun="claims"),
    )
}

DEFAULT_TEMPLATES: dict[str, str] = {
    "choice": "v0",
    "pairwise": "pairwise",
    "checklist": "criteria",
}
"""The template a task is asked in when the options name none."""

NOUNS: dict[str, tuple[str, ...]] = {
    "choice": ("option", "answer", "choice", "candidate"),
    "pairwise": ("response", "output", "assistant", "answer", "model", "candidate"),
    "checklist": ("criterion", "criteria", "requirement", "item", "claim", "statement"),
}
"""What a judge may call a task's candidates in its reply ("Output (a)", "criterion 3"):
the reader resolves such names to labels."""


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

    A checklist that says its ``kind`` is asked in that kind's template (``criteria`` or
    ``claims``) unless the guard names one.

    Raises :class:`~prin_guard.InvalidItemError` (naming ``task``) when the template is
    another task's, (naming ``kind``) when it asks about criteria and the item's
    candidates are claims or the other way round, and (naming ``context``) when claims
    have no sources to check.
    """
    if template is None:
        template = item.kind if item.kind is not None else DEFAULT_TEMPLATES[item.task]
    chosen = get_template(template)
    if chosen.task != item.task:
        raise InvalidItemError(
            "task",
            f"the item is a {item.task} item; the guard's template {chosen.id!r} asks "
            f"{chosen.task} questions (set no template for the task's default)",
        )
    if item.kind is not None and (item.kind == "claims") != chosen.claims:
        asks = "claims against sources" if chosen.claims else "criteria"
        raise InvalidItemError(
            "kind",
            f"the item's candidates are {item.kind}; the guard's template {chosen.id!r} "
            f"checks {asks} (set no template for the kind's own)",
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


def build_prompt(
    item: Item, polarity: Polarity, template: Template, mitigations: tuple[Mitigation, ...]
) -> str:
    """The text of one leg's question."""
    cot = Mitigation.COT in mitigations
    parts: list[str] = []
    word = template.word(polarity)
    if template.task == "pairwise":
        if item.context:
            parts.append(f"Context:\n{fence(item.context.strip())}\n")
        shown = "\n".join(f"Response {c.label}:\n{fence(c.text.strip())}" for c in item.candidates)
        parts.append(
            f"Given this instruction\n{fence((item.question or '').strip())}\nand two "
            f"responses to it:\n{shown}\nplease output the {word} one."
        )
    elif template.task == "checklist":
        options = ", ".join(quote_option(c.label or "", c.text) for c in item.candidates)
        response = fence((item.response or "").strip())
        question = f"\nto this question\n{fence(item.question.strip())}" if item.question else ""
        if template.claims:
            parts.append(
                f"Given these sources\n{fence((item.context or '').strip())}\nand this "
                f"response\n{response}{question}\nand these {template.noun} made in it: "
                f"{options}, please output the {template.noun} the sources {word}."
            )
        else:
            if item.context:
                parts.append(f"Context:\n{fence(item.context.strip())}\n")
            parts.append(
                f"Given this response\n{response}{question}\nand these {template.noun}: "
                f"{options}, please output the {template.noun} it {word}."
            )
    else:
        options = ", ".join(quote_option(c.label or "", c.text) for c in item.candidates)
        if item.context:
            parts.append(f"Context:\n{fence(item.context.strip())}\n")
        parts.append(
            f"Given this question\n{fence((item.question or '').strip())}\nand its answer "
            f"options: {options}, please output the {word} ones."
        )
    with_reasoning = [c for c in item.candidates if c.reasoning]
    if cot and with_reasoning:
        kind = {"choice": "option", "pairwise": "response"}.get(template.task, "candidate")
        parts.append(f"\nEach {kind} was derived through the reasoning path below.")
        for candidate in item.candidates:
            option = quote_option(candidate.label or "", candidate.text)
            if candidate.reasoning:
                parts.append(f"\n{option}\nReasoning:\n{fence(candidate.reasoning.strip())}")
            else:
                parts.append(f"\n{option}\nReasoning: (not given)")
        parts.append("")
    if polarity is Polarity.REVERSE and Mitigation.NEG_EXP in mitigations:
        parts.append(_neg_exp_sentence(template))
    parts.append(_answer_format(template, polarity, cot))
    return "\n".join(parts)


def build_messages(
    item: Item, polarity: Polarity, template: Template, mitigations: tuple[Mitigation, ...]
) -> list[Message]:
    """The conversation sent to the judge for one leg."""
    return [{"role": "user", "content": build_prompt(item, polarity, template, mitigations)}]
