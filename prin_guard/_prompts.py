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
"""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass

from prin_guard._exceptions import UsageError
from prin_guard._models import Item, Message, Polarity

__all__ = [
    "ANSWER_FORMAT",
    "ANSWER_FORMAT_COT",
    "TEMPLATES",
    "Mitigation",
    "Template",
    "build_messages",
    "build_prompt",
    "fence",
    "get_template",
    "parse_mitigations",
    "quote_option",
]


class Mitigation(enum.StrEnum):
    """Prompt changes the PRIN paper found to reduce inconsistency."""

    COT = "cot"
    """Show each candidate's reasoning path (or ask for step-by-step reasoning)."""
    NEG_EXP = "neg_exp"
    """Explain the negation at the end of the reverse prompt."""


@dataclass(frozen=True, slots=True)
class Template:
    """The wording of one direct/reverse prompt pair."""

    id: str
    version: int
    positive: str
    """The word of the direct question: "correct"."""
    negative: str
    """The word of the reverse question: "incorrect"."""

    @property
    def prompt_id(self) -> str:
        return f"{self.id}@{self.version}"

    def word(self, polarity: Polarity) -> str:
        return self.positive if polarity is Polarity.DIRECT else self.negative


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
    )
}

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
    """Look a template up by id (``v0``, ``v1``, ``v2``), or pass a Template through."""
    if isinstance(template, Template):
        return template
    try:
        return TEMPLATES[template]
    except KeyError:
        known = ", ".join(sorted(TEMPLATES))
        raise UsageError(f"template: unknown template {template!r}; known: {known}") from None


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
    return (
        f"Please recall that '{template.negative} options' are simply the options "
        f"different from the {template.positive} ones."
    )


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


def build_prompt(
    item: Item, polarity: Polarity, template: Template, mitigations: tuple[Mitigation, ...]
) -> str:
    """The text of one leg's question."""
    options = ", ".join(quote_option(c.label or "", c.text) for c in item.candidates)
    parts: list[str] = []
    if item.context:
        parts.append(f"Context:\n{fence(item.context.strip())}\n")
    parts.append(
        f"Given this question\n{fence(item.question.strip())}\nand its answer options: "
        f"{options}, please output the {template.word(polarity)} ones."
    )
    cot = Mitigation.COT in mitigations
    with_reasoning = [c for c in item.candidates if c.reasoning]
    if cot and with_reasoning:
        parts.append("\nEach option was derived through the reasoning path below.")
        for candidate in item.candidates:
            option = quote_option(candidate.label or "", candidate.text)
            if candidate.reasoning:
                parts.append(f"\n{option}\nReasoning:\n{fence(candidate.reasoning.strip())}")
            else:
                parts.append(f"\n{option}\nReasoning: (not given)")
        parts.append("")
    if polarity is Polarity.REVERSE and Mitigation.NEG_EXP in mitigations:
        parts.append(_neg_exp_sentence(template))
    parts.append(ANSWER_FORMAT_COT if cot else ANSWER_FORMAT)
    return "\n".join(parts)


def build_messages(
    item: Item, polarity: Polarity, template: Template, mitigations: tuple[Mitigation, ...]
) -> list[Message]:
    """The conversation sent to the judge for one leg."""
    return [{"role": "user", "content": build_prompt(item, polarity, template, mitigations)}]
