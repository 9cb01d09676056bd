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

Ratings. A template of task ``rating`` asks how good one response is on a scale (its item is
a :class:`~prin_guard._prompting._rating.RatingItem`). Its reverse leg asks how poor the
response is on the scale mirrored, and is written (``reverse_instruction``), derived by
flips (``flips``, and the positive and negative words when given, as a label template's), or
derived by the mirrored scale: :data:`MIRROR_NOTE` said before the instruction. ``rating``
(version 2) is prin-guard's own wording, MT-Bench's single-answer grading laid out as the
label templates are: the item first, then each leg's instruction and rubric. The packs in
``prin_guard/data/templates`` (label and rating alike, one registry: :func:`packs`) render
their sources' prompts byte for byte.

Placeholders. Every template's text follows one rule
(:func:`prin_guard._prompting._wording.fields_of` and
:func:`~prin_guard._prompting._wording.fill`, through :func:`_check_placeholders`):
``{name}``, a field of the template's task (:data:`FIELDS`, :data:`RATING_FIELDS`), a name
of its own for one (``placeholders``) or a fixed text (``values``); a literal brace written
twice.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import importlib.resources
import json
import os
import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from prin_guard._prompting._contract import AnswerContract, Line
from prin_guard._prompting._rating import MAX_LEVELS, RatingItem
from prin_guard._prompting._wording import check_legs_differ, check_words, fields_of, fill
from prin_guard.errors import InvalidItemError, UsageError
from prin_guard.models import TASKS, Item, Message, Polarity, Task
from prin_guard.tasks._words import TASK_WORDS

__all__ = [
    "ANSWER_FORMAT",
    "ANSWER_FORMAT_COT",
    "DEFAULT_TEMPLATES",
    "FIELDS",
    "MIRROR_NOTE",
    "RATING_ASPECTS",
    "RATING_FIELDS",
    "TEMPLATES",
    "Mitigation",
    "PromptLayout",
    "Template",
    "answer_instruction",
    "aspects_messages",
    "build_messages",
    "build_prompt",
    "fence",
    "get_template",
    "layout_differs",
    "packs",
    "parse_mitigations",
    "quote_option",
    "rating_control",
    "rating_messages",
    "reask_prompt",
    "template_digest",
    "template_file",
    "template_for",
]


class Mitigation(enum.StrEnum):
    """Prompt changes the PRIN paper found to reduce inconsistency."""

    COT = "cot"
    """Show each candidate's reasoning path (or ask for step-by-step reasoning)."""
    NEG_EXP = "neg_exp"
    """Explain the negation at the end of the reverse prompt."""


TEMPLATE_TASKS: tuple[Task, ...] = (*TASKS, "rating", "ranking")
"""The tasks a template asks: the label tasks' questions about candidates, a rating's, and a
ranking's (its answer contract, for reading recorded rankings)."""

MAX_WORDS_CHARS = 40
"""The longest a template's word (positive, negative, noun) may be."""

# A word or a short phrase: letters (any script), one space, hyphen or apostrophe
# between them. Nothing that could pose as prompt text: no punctuation ("better one;
# reply Answer: B"), no digits, no quotes, no line breaks.
_WORDS = re.compile(rf"(?=.{{1,{MAX_WORDS_CHARS}}}\Z)[^\W\d_]+(?:[ '’-][^\W\d_]+)*\Z", re.DOTALL)


MAX_FLIP_CHARS = 200
"""The longest a flip's source or target may be."""
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _check_flips(flips: tuple[tuple[str, str], ...]) -> None:
    """Each flip's source and target: one line of text that starts and ends with a letter
    or digit (a flip is found as whole words), no braces (a flip never makes or breaks a
    placeholder), each source once (case aside)."""
    seen: set[str] = set()
    for source, target in flips:
        for side, word in (("source", source), ("target", target)):
            if not (
                0 < len(word) <= MAX_FLIP_CHARS
                and word[0].isalnum()
                and word[-1].isalnum()
                and all(char.isprintable() and char not in "{}" for char in word)
            ):
                raise UsageError(
                    f"template: flips: {side} {_shown(word)} (of {_shown(source)}) must be one "
                    f"line of 1-{MAX_FLIP_CHARS} characters that starts and ends with a letter "
                    "or digit, without braces"
                )
        folded = " ".join(source.casefold().split())
        if folded in seen:
            raise UsageError(f"template: flips: {_shown(source)} is flipped twice")
        seen.add(folded)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


@dataclass(frozen=True, slots=True)
class Template:
    """The wording of one direct/reverse prompt pair, for one task (a label task's, or a
    rating's: ``task="rating"``)."""

    id: str
    version: int
    positive: str = ""
    """The word of the direct question: "correct", "better", "meets", "support". A word
    or a short phrase: letters, single spaces, hyphens, apostrophes, at most
    :data:`MAX_WORDS_CHARS` characters (it goes into the prompt unquoted). Required for a
    label task; a rating template may give the pair (it is then one of its flips)."""
    negative: str = ""
    """The word of the reverse question: "incorrect", "worse", "fails to meet" (the same
    form)."""
    task: Task = "choice"
    """Which task's items it asks about (``rating``: a score on a scale)."""
    noun: str = ""
    """What the prompt calls the candidates ("options", "responses", "criteria",
    "claims"; the same form as the words); empty: the task's usual noun. A checklist's
    noun ``claims`` asks whether the item's sources (its context) support them."""
    contract: AnswerContract | None = None
    """What the prompt asks the judge to write (the labels as it shows them, the tie
    word, the verdict format); ``None``: the bundled prompts' final "Answer: ..." line."""
    # -- a judge prompt of one's own (text with placeholders); None: the bundled wording --
    system: str | None = None
    """The system message (placeholders allowed), or none."""
    instruction: str | None = None
    """The direct leg's user message, with placeholders for the item's fields
    (``{question}``, ``{candidate_1}``, ...; see :data:`FIELDS`). Given: the template is a
    prompt of one's own, rendered as written."""
    reverse_system: str | None = None
    """The reverse leg's system message; ``None``: the system message with ``flips``."""
    reverse_instruction: str | None = None
    """The reverse leg's user message; ``None``: the instruction with ``flips``."""
    flips: tuple[tuple[str, str], ...] = ()
    """Word flips that derive the reverse leg from the direct one, applied to the
    template's own text only, never to the item's ("better" -> "worse"), whole words,
    case kept; the positive and negative words always swap."""
    placeholders: tuple[tuple[str, str], ...] = ()
    """The template's own names for the item's fields: ``(("answer_a", "candidate_1"),
    ("answer_b", "candidate_2"))`` for MT-Bench's ``{answer_a}``."""
    values: tuple[tuple[str, str], ...] = ()
    """Fixed texts for placeholders that are not the item's (a rubric)."""
    candidate_format: str = "{label}) {text}"
    """How ``{candidates}`` shows each candidate (one a line)."""
    cot: str | None = None
    """The zero-shot CoT sentence in the template's words (``cot``); default "Let's think
    step by step."."""
    neg_exp: str | None = None
    """The explanation of the negation in the template's words (``neg_exp``, reverse leg);
    default: the paper's sentence with the template's words."""
    reasoning: str | None = None
    """How a candidate's reasoning path is shown (``cot``), with ``{label}`` and
    ``{reasoning}``; default: "{label}: {reasoning}" under a line saying what they are."""
    structured: bool = False
    """Let a judge constrain its reply to a JSON schema of labels even though the prompt
    is one's own (off: the prompt asks for its own format, and is asked in plain text)."""
    source: str | None = None
    """Where the prompt's text comes from (a pack's attribution)."""
    licence: str | None = None
    """The licence of that text."""
    # -- a rating template's own (task "rating") --
    scale: tuple[int, int] | None = None
    """The bounds a rating prompt's own words state (an item on another scale is refused);
    ``None``: any scale (the words use ``{min}`` and ``{max}``, or state none)."""
    rubric_line: str = "{level}: {text}"
    """How ``{rubric}`` shows each level of the item's rubric (``{level}``, ``{text}``)."""
    rubric_header: str = ""
    """A line above the rubric's levels, with ``{context}`` (Prometheus's criteria line);
    shown when the item has a context."""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not re.fullmatch(
            r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", self.id
        ):
            raise UsageError(f"template: id {self.id!r} is not 1-64 letters, digits, '_', '.', '-'")
        if isinstance(self.version, bool) or not isinstance(self.version, int) or self.version < 1:
            raise UsageError(f"template: version must be a positive integer, got {self.version!r}")
        if self.task not in TEMPLATE_TASKS:
            raise UsageError(
                f"template: unknown task {self.task!r}; use {', '.join(TEMPLATE_TASKS)}"
            )
        rating = self.task == "rating"
        for name in ("positive", "negative", "noun"):
            word = getattr(self, name)
            if isinstance(word, str):
                word = word.strip()
                object.__setattr__(self, name, word)
            if word == "" and (name == "noun" or rating):
                continue  # the task's usual noun; a rating's words are flips of its own
            if word == "":
                raise UsageError(f"template: {name}: missing")
            if not isinstance(word, str) or not _WORDS.fullmatch(word):
                raise UsageError(
                    f"template: {name} must be a word or a short phrase (letters, single "
                    f"spaces, hyphens, apostrophes; at most {MAX_WORDS_CHARS} characters), "
                    f"got {_shown(word)}"
                )
        if rating and bool(self.positive) != bool(self.negative):
            raise UsageError(
                f"template: {'negative' if self.positive else 'positive'}: a rating template's "
                "words come as a pair (each flipped into the other on the reverse leg), or not "
                "at all"
            )
        if self.positive and self.positive.lower() == self.negative.lower():
            raise UsageError("template: the positive and the negative words must differ")
        if not self.noun and not rating:
            # a ranking's template declares how its judge writes a ranking (its contract),
            # what read_reply reads a recorded ranking with
            words = TASK_WORDS.get(self.task)
            object.__setattr__(self, "noun", words.noun if words else "responses")
        for name in ("flips", "placeholders", "values"):
            pairs = getattr(self, name)
            if isinstance(pairs, Mapping):  # as a file or a JSON object spells them
                pairs = tuple(pairs.items())
            if not isinstance(pairs, list | tuple) or not all(
                isinstance(pair, list | tuple)
                and len(pair) == 2
                and all(isinstance(part, str) for part in pair)
                for pair in pairs
            ):
                raise UsageError(f"template: {name} must map words (text) to words (text)")
            object.__setattr__(self, name, tuple((str(a), str(b)) for a, b in pairs))
        _check_flips(self.flips)
        check_words(
            [
                ("positive", self.positive),
                ("negative", self.negative),
                ("noun", self.noun),
                *(("flips", word) for pair in self.flips for word in pair),
            ],
            [
                (name, _PLACEHOLDER.sub(" ", text))
                for name in ("system", "instruction", "reverse_system", "reverse_instruction",
                             "cot", "neg_exp")
                if isinstance(text := getattr(self, name), str)
            ]
            + [("values", text) for _, text in self.values],
        )  # fmt: skip
        _check_fields_of_task(self)
        if rating:
            _check_rating(self)
            return
        if isinstance(self.contract, Mapping):
            try:
                object.__setattr__(
                    self, "contract", AnswerContract.model_validate(self.contract, strict=False)
                )
            except ValidationError as exc:
                raise usage_error_of("contract", exc) from None
        if self.task == "ranking":
            pass  # a ranking's text and contract: checked by its task (tasks._ranking)
        elif self.instruction is not None or self.system is not None:
            _check_text(self)
        elif any(
            getattr(self, name) is not None
            for name in ("reverse_system", "reverse_instruction", "cot", "reasoning")
        ):
            raise UsageError(
                "template: reverse_system, reverse_instruction, cot and reasoning belong to "
                "a prompt of one's own: give its instruction"
            )

    @property
    def text(self) -> bool:
        """A judge prompt of one's own, rendered from its text."""
        return self.instruction is not None

    @property
    def prompt_id(self) -> str:
        return f"{self.id}@{self.version}"

    @property
    def reverse_by(self) -> Literal["written", "flips", "mirror"]:
        """How the reverse leg of a prompt of one's own is made: ``written``
        (``reverse_instruction``), derived by ``flips`` (the template's, and its positive
        and negative words swapped), or, for a rating template with neither, by the
        ``mirror``: :data:`MIRROR_NOTE` said before the instruction (the rubric's levels at
        their mirrored scores, as on every rating's reverse leg)."""
        if self.reverse_instruction is not None:
            return "written"
        return "flips" if _flips(self) else "mirror"

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

    def texts(self, polarity: Polarity) -> tuple[str | None, str]:
        """The system message and the instruction of a leg, placeholders unfilled: the
        reverse leg's as given, else derived by the flips (a rating template's derived by
        the mirror: the direct leg's, which :data:`MIRROR_NOTE` precedes when rendered)."""
        if self.instruction is None:
            raise UsageError(f"template: {self.id!r} has no text of its own")
        if polarity is Polarity.DIRECT:
            return self.system, self.instruction
        return _reverse_texts(self)

    def render(
        self,
        item: Item | RatingItem | Mapping[str, Any],
        polarity: Polarity | str = Polarity.DIRECT,
        mitigations: object = (),
        *,
        rubric_reversed: bool = False,
    ) -> list[Message]:
        """The messages of one leg of ``item`` in this template (what the judge is sent);
        a rating template's of a rating item (``rubric_reversed``: the rubric's levels from
        the top down, the order check's leg). A rating is asked without mitigations."""
        leg = Polarity(getattr(polarity, "value", polarity))
        asked = parse_mitigations(mitigations)
        if self.task == "rating":
            if asked:
                raise UsageError(
                    "mitigations: cot and neg_exp are a label task's; a rating's reverse leg "
                    "explains its mirrored scale in its own words"
                )
            rated = item if isinstance(item, RatingItem) else RatingItem.coerce(item)  # type: ignore[arg-type]
            return rating_messages(rated, leg, self, rubric_reversed=rubric_reversed)
        if rubric_reversed:
            raise UsageError("rubric_reversed: a rating's order check; this template asks labels")
        return build_messages(Item.coerce(item), leg, self, asked)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Template:
        """A template from a TOML or JSON file (see :meth:`from_mapping`), checked now:
        an unknown placeholder, a label the prompt never shows or a format it never asks
        for is a :class:`~prin_guard.UsageError` naming the field."""
        file = Path(path)
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise UsageError(f"template: cannot read {file}: {exc.strerror or exc}") from None
        try:
            if file.suffix.lower() == ".json":
                data = json.loads(raw)
            else:
                data = tomllib.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise UsageError(
                f"template: {file} is not valid {file.suffix or 'TOML'}: {exc}"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"template: {file} must hold one table of fields")
        return cls.from_mapping(data)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Template:
        """A template from its fields, as a file or a JSON object gives them: ``id``,
        ``version``, ``task``, ``positive``, ``negative``, ``noun``, and for a prompt of
        one's own ``system``, ``instruction``, ``reverse_system``, ``reverse_instruction``,
        ``flips``, ``placeholders``, ``values``, ``candidate_format``, ``cot``,
        ``neg_exp``, ``reasoning``, ``structured``, ``contract`` (``labels``, ``tie``,
        ``format``: ``{kind = "tag"}``, ...), ``source``, ``licence``; a rating template's
        (``task = "rating"``) ``scale`` (``[min, max]``), ``rubric_line`` and
        ``rubric_header`` (a file written for 0.1's ``RatingPrompt`` loads as it is)."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UsageError(
                f"template: unknown field {unknown[0]!r}; the fields are {', '.join(sorted(known))}"
            )
        missing = [name for name in ("id", "version") if name not in data]
        if missing:
            raise UsageError(f"template: {missing[0]}: missing")
        return cls(**data)


ANSWER_FORMAT = (
    'Reply with one line: "Answer: " followed by the letters of those options, '
    'separated by commas, or "Answer: none" if there are none.'
)
ANSWER_FORMAT_COT = (
    "Let's think step by step about each option. Then finish with one line: "
    '"Answer: " followed by the letters of those options, separated by commas, '
    'or "Answer: none" if there are none.'
)


def get_template(template: str | os.PathLike[str] | Template) -> Template:
    """Look a template up: a Template passes through; an id names a bundled template
    (``v0``, ``pairwise``, ``claims``, ...) or a pack (a judge prompt people run, such as
    ``mt-bench-pair``); a path to a ``.toml`` or ``.json`` file is loaded."""
    if isinstance(template, Template):
        return template
    if isinstance(template, str) and template in TEMPLATES:
        return TEMPLATES[template]
    if isinstance(template, str) and (pack := packs().get(template)) is not None:
        return pack
    path = Path(template)
    if path.suffix.lower() in (".toml", ".json") or os.sep in str(template):
        return Template.from_file(path)
    known = ", ".join([*sorted(TEMPLATES), *sorted(packs())])
    raise UsageError(
        f"template: unknown template {str(template)!r}; known: {known}, or a .toml/.json file"
    )


def template_file(value: object) -> object:
    """``value`` loaded as a template when it names a template file (a path ending in
    ``.toml`` or ``.json``, or holding a folder), else ``value`` as it is. Only the
    programs' own surfaces (the Python API, the command line, a service's configuration)
    read files; a request's options never do: GuardOptions takes ids and objects only."""
    if isinstance(value, os.PathLike) or (
        isinstance(value, str)
        and value not in TEMPLATES
        and (value.lower().endswith((".toml", ".json")) or os.sep in value or "/" in value)
    ):
        return Template.from_file(os.fspath(value))  # a label or a rating template
    return value


_PACKS = "templates"
"""The folder of ``prin_guard/data`` that holds the packs, one TOML file each."""


@functools.cache
def packs() -> dict[str, Template]:
    """The judge prompts people run, shipped as templates (``prin_guard/data/templates``),
    label and rating prompts alike: each with its source and licence. Loaded on first use."""
    folder = importlib.resources.files("prin_guard.data").joinpath(_PACKS)
    out: dict[str, Template] = {}
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            template = Template.from_mapping(data)
            out[template.id] = template
    return out


def template_for(template: str | Template | None, item: Item | RatingItem) -> Template:
    """The template ``item`` is asked in: ``template``, or its task's default.

    A checklist that says its ``kind`` is asked in that kind's template (``criteria`` or
    ``claims``) unless the guard names one.

    Raises :class:`~prin_guard.InvalidItemError` (naming ``task``) when the template is
    another task's, (naming ``kind``) when it asks about criteria and the item's
    candidates are claims or the other way round, (naming ``context``) when claims
    have no sources to check, and (naming the field) when a rating item does not fit the
    rating template (its scale, a field the prompt shows, aspects).
    """
    if isinstance(item, RatingItem):
        chosen = get_template(DEFAULT_TEMPLATES["rating"] if template is None else template)
        _fits(chosen, item)
        return chosen
    if template is None:
        template = item.kind if item.kind is not None else DEFAULT_TEMPLATES[item.task]
    chosen = get_template(template)
    if chosen.task != item.task:
        raise InvalidItemError(
            "task",
            f"the item is a {item.task} item (an item that names no task is a choice "
            f"item); the guard's template {chosen.id!r} asks {chosen.task} questions: "
            f'give the item "task": "{chosen.task}" if it is one, or judge it under another '
            "template",
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
    if template.neg_exp is not None:
        return template.neg_exp
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


def answer_instruction(template: Template, item: Item, polarity: Polarity) -> str:
    """How the template asks for the final answer, as one instruction: what ends each of
    the probe's follow-up turns (its control prompt, in the item's task and template) and
    what a re-ask asks for."""
    if template.builtin:
        return _answer_format(template, polarity, cot=False)
    return template.answer_contract.ask(item.labels, len(item.candidates))


def reask_prompt(template: Template, item: Item, polarity: Polarity) -> str:
    """The second question put to a judge whose reply could not be read: state only the
    final answer, in the form the template asks for."""
    return (
        "Your reply does not end with a final answer I can read. "
        f"{answer_instruction(template, item, polarity)}"
    )


def build_messages(
    item: Item,
    polarity: Polarity,
    template: Template,
    mitigations: tuple[Mitigation, ...],
    *,
    layout: PromptLayout = "template",
) -> list[Message]:
    """The conversation sent to the judge for one leg."""
    if template.text:
        return _render_text(item, polarity, template, mitigations)
    prompt = build_prompt(item, polarity, template, mitigations, layout=layout)
    return [{"role": "user", "content": prompt}]


# -- judge prompts of one's own: text with placeholders ------------------------------------

FIELDS: dict[str, str] = {
    "question": "the item's question (the instruction the responses answer)",
    "response": "the response a checklist judges",
    "context": "the item's context (a passage, the sources, a rubric)",
    "reference": "a reference answer (the item's context)",
    "candidates": "every candidate, one a line, as candidate_format shows it",
    "labels": "the candidates' labels as shown, comma-separated",
    "noun": "the template's noun for the candidates",
    "candidate_<n>": "the n-th candidate's text, in the order shown (1 the first)",
    "label_<n>": "the n-th candidate's label as the prompt shows it",
    "reasoning_<n>": "the n-th candidate's reasoning path",
}
"""The placeholders a template's text may use; its ``placeholders`` give them other names."""

_NUMBERED = re.compile(r"(candidate|label|reasoning)_([1-9][0-9]{0,2})\Z")
_PLAIN_FIELDS = frozenset(
    {"question", "response", "context", "reference", "candidates", "labels", "noun"}
)
_FORMATTER = string.Formatter()
_REQUIRED: dict[str, tuple[str, ...]] = {
    "choice": ("question",),
    "pairwise": ("question", "candidate_1", "candidate_2"),
    "checklist": ("response",),
}
"""The fields a task's prompt must show (besides the candidates: ``{candidates}`` or each
``{candidate_<n>}``)."""


_RATING_ONLY = ("scale", "rubric_line", "rubric_header")
"""A rating template's own fields (a label template leaves them at their defaults)."""
_LABEL_ONLY = ("noun", "contract", "candidate_format", "cot", "neg_exp", "reasoning", "structured")
"""A label template's own fields (a rating template leaves them at their defaults)."""
_DEFAULTS = {field.name: field.default for field in dataclasses.fields(Template)}


def template_digest(template: Template) -> str:
    """A hash of everything a template says (its words, texts, contract): two templates
    with the same digest ask the same questions. A rating template's own fields count
    where they are set (a label template's digest is what it was before they existed)."""
    data = {
        field.name: getattr(template, field.name)
        for field in dataclasses.fields(template)
        if field.name not in ("source", "licence")
        and not (field.name in _RATING_ONLY and getattr(template, field.name) == field.default)
    }
    if template.contract is not None:
        data["contract"] = template.contract.model_dump(mode="json")
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def usage_error_of(field: str, exc: ValidationError) -> UsageError:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return UsageError(f"template: {field}{'.' + where if where else ''}: {message}")


def _fields_of(text: str, where: str) -> list[str]:
    """The placeholders of ``text``: the one rule of every prompt kind
    (:func:`prin_guard._prompting._wording.fields_of`)."""
    return fields_of(text, where)


def _canonical(name: str, template: Template) -> str:
    """The field a placeholder stands for (through the template's own names)."""
    return dict(template.placeholders).get(name, name)


def _known_field(name: str) -> bool:
    return name in _PLAIN_FIELDS or _NUMBERED.match(name) is not None


def _known_rating_field(name: str) -> bool:
    return name in RATING_FIELDS


def _check_fields_of_task(template: Template) -> None:
    """A field of the other kind of template set is a UsageError naming it: a label
    template has no scale or rubric, a rating template no candidates, contract or
    mitigations (its reply is a score, read on the item's scale)."""
    rating = template.task == "rating"
    for name in _LABEL_ONLY if rating else _RATING_ONLY:
        if getattr(template, name) != _DEFAULTS[name]:
            raise UsageError(
                f"template: {name}: a label task's (candidates, their contract, the "
                "mitigations); a rating's reply is a score read on the item's scale"
                if rating
                else f"template: {name}: a rating template's (task = 'rating'); this "
                f"template asks {template.task} questions"
            )


def _check_rating(template: Template) -> None:
    """Check a rating template when it is made: its scale, and for a prompt of one's own
    its placeholders (:func:`_check_placeholders`), the response shown, the rubric's layout
    and a reverse leg that asks the reverse question."""
    if template.scale is not None:
        object.__setattr__(template, "scale", _scale_bounds(template.scale))
    if template.instruction is None:
        given = [name for name in ("system", *_LEG_TEXTS[2:]) if getattr(template, name)]
        if given or template.flips or template.positive or template.values:
            named = (
                given[0] if given else "flips" if template.flips or template.positive else "values"
            )
            raise UsageError(
                f"template: {named}: belongs to a rating prompt of one's own: give its "
                "instruction (without one, the template asks in prin-guard's own words)"
            )
        return
    shown = _check_placeholders(template)
    if not isinstance(template.instruction, str) or not template.instruction.strip():
        raise UsageError("template: instruction must be text")
    for name, allowed in (("rubric_line", {"level", "text"}), ("rubric_header", {"context"})):
        extra = set(_fields_of(getattr(template, name), name)) - allowed
        if extra:
            raise UsageError(
                f"template: {name}: {{{sorted(extra)[0]}}} is not one of "
                f"{', '.join('{' + a + '}' for a in sorted(allowed))}"
            )
    if "response" not in shown["instruction"]:
        raise UsageError("template: instruction: never shows the response ({response})")
    by = template.reverse_by
    if by == "mirror":
        return  # the mirror note makes the reverse leg another question
    check_legs_differ(
        (template.system, template.instruction),
        _reverse_texts(template),
        "reverse_instruction" if by == "written" else "flips",
        hint=" (how poor the response is, or on the scale mirrored); leave it out to have it "
        "derived"
        if by == "written"
        else " (no flip changes the text: give reverse_instruction, flips that occur in it, "
        "or neither, for the mirrored scale's note)",
    )


def _scale_bounds(raw: object) -> tuple[int, int]:
    """A rating template's ``scale``: ``[min, max]``, integers, ``min < max``, at most
    :data:`~prin_guard._prompting._rating.MAX_LEVELS` levels."""
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise UsageError("template: scale must be [min, max]")
    low, high = raw
    for name, value in (("min", low), ("max", high)):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
            raise UsageError(f"template: scale: {name} must be an integer (|n| <= 1,000,000)")
    if low >= high:
        raise UsageError(f"template: scale: max must be above min ({low}), got {high}")
    if high - low + 1 > MAX_LEVELS:
        raise UsageError(f"template: scale: {high - low + 1} levels; at most {MAX_LEVELS}")
    return int(low), int(high)


_LEG_TEXTS = ("system", "instruction", "reverse_system", "reverse_instruction")
"""A template's texts that become a leg's messages (where placeholders are filled)."""


def _check_placeholders(template: Template) -> dict[str, set[str]]:
    """The one placeholder rule of every template, label or rating: each text's
    placeholders plain names (:func:`fields_of`), each a field of the template's task
    (:data:`FIELDS`, :data:`RATING_FIELDS`), a name of the template's own for one
    (``placeholders``) or a fixed text (``values``). Returns the fields each leg text
    shows (fixed texts by their own name), or a UsageError naming the field."""
    rating = template.task == "rating"
    known = _known_rating_field if rating else _known_field
    fields = RATING_FIELDS if rating else FIELDS
    texts = (
        *_LEG_TEXTS, "cot", "neg_exp", "reasoning", "candidate_format", "rubric_line",
        "rubric_header", "source", "licence",
    )  # fmt: skip
    for name in texts:
        value = getattr(template, name)
        if value is not None and not isinstance(value, str):
            raise UsageError(f"template: {name}: expected text, got {type(value).__name__}")
    for own, field in template.placeholders:
        if not own.isidentifier():
            raise UsageError(f"template: placeholders: {own!r} is not a placeholder name")
        if not known(field):
            raise UsageError(
                f"template: placeholders: {own} stands for {field!r}, which is no field; "
                f"the fields are {', '.join(fields)}"
            )
    constants = dict(template.values)
    shown: dict[str, set[str]] = {}
    for where in _LEG_TEXTS:
        text = getattr(template, where)
        if text is None:
            continue
        shown[where] = set()
        for name in _fields_of(text, where):
            if name not in constants and not known(_canonical(name, template)):
                raise UsageError(
                    f"template: {where}: unknown placeholder {{{name}}}; the fields are "
                    f"{', '.join(fields)} (or name yours in placeholders, or give it in values)"
                )
            shown[where].add(_canonical(name, template) if name not in constants else name)
    return shown


def _check_text(template: Template) -> None:
    """Check a label task's prompt of one's own when it is made (not on its first item)."""
    if template.instruction is None:
        raise UsageError("template: instruction: a prompt of one's own needs its instruction")
    used = set().union(*_check_placeholders(template).values())
    format_fields = set(_fields_of(template.candidate_format, "candidate_format"))
    if not format_fields <= {"label", "text"} or "text" not in format_fields:
        raise UsageError("template: candidate_format: use {label} and {text} only, {text} at least")
    if template.reasoning is not None:
        extra = set(_fields_of(template.reasoning, "reasoning")) - {"label", "reasoning"}
        if extra:
            raise UsageError(
                f"template: reasoning: use {{label}} and {{reasoning}}, not {{{extra.pop()}}}"
            )
    for field in _REQUIRED[template.task]:
        if field not in used and not (field.startswith("candidate_") and "candidates" in used):
            raise UsageError(
                f"template: instruction: a {template.task} prompt must show {{{field}}} "
                f"({FIELDS.get(field, FIELDS['candidate_<n>'])})"
            )
    if "candidates" not in used and not any(name.startswith("candidate_") for name in used):
        raise UsageError(
            "template: instruction: the prompt never shows the candidates: use {candidates} "
            "or {candidate_1}, {candidate_2}, ..."
        )
    _check_contract(template, used)
    given = template.reverse_instruction is not None
    check_legs_differ(
        (template.system, template.instruction),
        _reverse_texts(template),
        "reverse_instruction" if given else "flips",
        hint=""
        if given
        else " (no flip changes the text: give reverse_instruction, or flips that occur in it)",
    )


def _own_text(template: Template) -> str:
    """The template's own words (placeholders left out): what any leg shows of it."""
    parts = [template.system or "", template.instruction or ""]
    return "\n".join(literal for part in parts for literal, *_ in _FORMATTER.parse(part) if literal)


def _check_contract(template: Template, used: set[str]) -> None:
    """A declared label the prompt never shows, or a verdict format it never asks for, is
    an error naming the field."""
    contract = template.contract
    if contract is None:
        raise UsageError(
            "template: contract: a prompt of one's own says what the judge writes: give its "
            "contract (the labels as shown, the tie word, the verdict format)"
        )
    own = _own_text(template)
    shows_labels = "candidates" in used or any(name.startswith("label_") for name in used)
    for label in contract.labels or ():
        if not shows_labels and not re.search(rf"(?<![\w]){re.escape(label)}(?![\w])", own):
            raise UsageError(
                f"template: contract.labels: the prompt never shows the label {label!r}"
            )
    if contract.tie is not None and contract.tie not in own:
        raise UsageError(f"template: contract.tie: the prompt never asks for {contract.tie!r}")
    contract.format.check(own, reverse_written=template.reverse_instruction is not None)


def _flips(template: Template) -> tuple[tuple[str, str], ...]:
    """The flips that derive the reverse leg: the template's, then its positive and
    negative words swapped (unless it flips them itself)."""
    flips = list(template.flips)
    given = {source.casefold() for source, _ in flips}
    swapped = ((template.positive, template.negative), (template.negative, template.positive))
    for source, target in swapped:
        if source and source.casefold() not in given:  # a rating template may have none
            flips.append((source, target))
    return tuple(flips)


@functools.lru_cache(maxsize=256)
def _flip_pattern(sources: tuple[str, ...]) -> re.Pattern[str]:
    """Each source a group of its own (``f0``, ``f1``, ... in the order given), the
    longest tried first: a match says which flip it is by its group, never by its case
    folded (Turkish "İYİ" matches "iyi" but folds to "i̇yi̇")."""
    order = sorted(range(len(sources)), key=lambda k: len(sources[k]), reverse=True)
    alternatives = "|".join(
        f"(?P<f{k}>" + r"\s+".join(map(re.escape, sources[k].split())) + ")" for k in order
    )
    return re.compile(rf"(?<![\w])(?:{alternatives})(?![\w])", re.IGNORECASE)


def _flip(text: str | None, flips: tuple[tuple[str, str], ...]) -> str | None:
    """``text`` with every flip applied at once (so "better"/"worse" swap, never both
    become one), whole words, the case of the first letter kept."""
    if text is None or not flips:
        return text
    # the first flip of a source wins, as the positive and negative words yield to the
    # template's own flips of them (_flips)
    to: dict[str, str] = {}
    for source, target in flips:
        to.setdefault(" ".join(source.casefold().split()), target)
    sources = tuple(to)
    targets = tuple(to.values())
    literal_parts: list[str] = []
    for literal, name, spec, conversion in _FORMATTER.parse(text):
        literal_parts.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is not None:  # placeholders are the item's: never flipped
            converted = f"!{conversion}" if conversion else ""
            literal_parts.append(f"{{{name}{converted}{':' + spec if spec else ''}}}")
    out: list[str] = []
    for piece in literal_parts:
        if piece.startswith("{") and not piece.startswith("{{"):
            out.append(piece)
            continue

        def swap(match: re.Match[str]) -> str:
            found = match.group()
            assert match.lastgroup is not None
            target = targets[int(match.lastgroup[1:])]
            return target[:1].upper() + target[1:] if found[:1].isupper() else target

        out.append(_flip_pattern(sources).sub(swap, piece))
    return "".join(out)


@functools.lru_cache(maxsize=256)
def _reverse_texts(template: Template) -> tuple[str | None, str]:
    """The reverse leg's system message and instruction: given, or derived by flips."""
    flips = _flips(template)
    system = template.reverse_system
    if system is None:
        system = _flip(template.system, flips)
    instruction = template.reverse_instruction
    if instruction is None:
        instruction = _flip(template.instruction, flips)
    assert instruction is not None
    return system, instruction


def _field_values(item: Item, template: Template) -> dict[str, str]:
    """What each placeholder of ``template`` is filled with for ``item`` (shown order)."""
    contract = template.answer_contract
    shown = contract.labels or item.labels
    if len(shown) < len(item.candidates):
        raise InvalidItemError(
            "candidates",
            f"the template {template.id!r} shows {len(shown)} candidates; the item has "
            f"{len(item.candidates)}",
        )
    values: dict[str, str] = {
        "question": item.question or "",
        "response": item.response or "",
        "context": item.context or "",
        "reference": item.context or "",
        "labels": ", ".join(shown[: len(item.candidates)]),
        "noun": template.noun,
        "candidates": "\n".join(
            fill(template.candidate_format, {"label": label, "text": candidate.text})
            for label, candidate in zip(shown, item.candidates, strict=False)
        ),
    }
    for n, (label, candidate) in enumerate(zip(shown, item.candidates, strict=False), start=1):
        values[f"candidate_{n}"] = candidate.text
        values[f"label_{n}"] = label
        values[f"reasoning_{n}"] = candidate.reasoning or ""
    for own, field in template.placeholders:
        if field in values:
            values[own] = values[field]
    values.update(template.values)
    return values


class _Fields(dict[str, str]):
    """The values of one leg; a placeholder the item cannot fill is an error naming it."""

    def __missing__(self, key: str) -> str:
        raise InvalidItemError(
            "candidates",
            f"the template shows {{{key}}}, which this item does not have (fewer candidates)",
        )


def _render_text(
    item: Item, polarity: Polarity, template: Template, mitigations: tuple[Mitigation, ...]
) -> list[Message]:
    """A leg of a prompt of one's own: its texts filled with the item's fields, then the
    mitigations in the template's words (after the prompt, the leg's own part)."""
    system, instruction = template.texts(polarity)
    values = _Fields(_field_values(item, template))
    user = fill(instruction, values)
    extra: list[str] = []
    if Mitigation.COT in mitigations:
        reasoned = [c for c in item.candidates if c.reasoning]
        if reasoned:
            shown = template.answer_contract.labels or item.labels
            line = template.reasoning or "{label}: {reasoning}"
            extra.append(
                f"Each of the {template.noun} was derived through the reasoning path below."
            )
            extra.extend(
                fill(line, {"label": label, "reasoning": candidate.reasoning or "(not given)"})
                for label, candidate in zip(shown, item.candidates, strict=False)
            )
        else:
            extra.append(template.cot or "Let's think step by step.")
    if polarity is Polarity.REVERSE and Mitigation.NEG_EXP in mitigations:
        extra.append(_neg_exp_sentence(template))
    if extra:
        user = user + "\n\n" + "\n\n".join(extra)
    messages: list[Message] = []
    if system is not None:
        messages.append({"role": "system", "content": fill(system, values)})
    messages.append({"role": "user", "content": user})
    return messages


# -- rating templates ----------------------------------------------------------------------

RATING_FIELDS: dict[str, str] = {
    "question": "the item's question (the user question the response answers)",
    "response": "the response to rate",
    "reference": "the item's reference answer",
    "context": "the item's context",
    "rubric": "the scale's rubric, one level a line, as rubric_line shows it (mirrored on the "
    "reverse leg)",
    "min": "the scale's lowest score",
    "max": "the scale's highest score",
}
"""The placeholders a rating template's text may use; its ``placeholders`` give them other
names."""

MIRROR_NOTE = (
    "Note: this time, rate how poor the response is, on the same scale mirrored: {min} "
    "means excellent and {max} means very poor, so a higher number means a worse response. "
    "Answer in the format asked below.\n\n"
)
"""What a reverse leg derived by the mirror says before the prompt's own words (the
explanation of the negation, for a prompt whose words prin-guard does not rewrite)."""

RATING_ASPECTS = "rating-aspects"
"""The name on the legs of a rating whose aspects are asked together
(``rating_aspects="together"``): prin-guard's own wording, the ``rating`` template's
version."""


def rating_messages(
    item: RatingItem,
    polarity: Polarity,
    template: Template,
    *,
    rubric_reversed: bool = False,
) -> list[Message]:
    """The conversation one leg of ``item`` sends in the rating ``template``: the direct
    question, or the mirrored one (with the rubric's descriptions at their mirrored
    levels). ``rubric_reversed`` lists the rubric's levels from the top down (the order
    check's leg)."""
    _fits(template, item)
    if template.text:
        return _render_rating_text(item, polarity, template, rubric_reversed)
    mirrored = polarity is Polarity.REVERSE
    scale = item.scale
    example = (scale.min + scale.max + 1) // 2
    words = (_REVERSE if mirrored else _DIRECT).format(
        factors=_factors(item),
        reference=_REFERENCE if item.reference else "",
        low=scale.min,
        high=scale.max,
        example=example,
    )
    parts = ["[Instruction]\n" + words]
    rubric = scale.rubric_lines(mirrored=mirrored, reverse_order=rubric_reversed)
    if rubric:
        parts.append("[Score Rubric]\n" + "\n".join(rubric))
    return _conversation(parts, item)


def _fits(template: Template, item: RatingItem) -> None:
    """An InvalidItemError naming the field when ``item`` does not fit the rating
    ``template``: another scale than the one its words state, a field it shows and the
    item lacks, aspects (a prompt of one's own rates one)."""
    if template.task != "rating":
        raise InvalidItemError(
            "task",
            f"the item is a rating item; the template {template.id!r} asks {template.task} "
            "questions: rate under a rating template",
        )
    if not template.text:
        return  # prin-guard's own words: any scale, any fields, aspects too
    if item.aspects:
        raise InvalidItemError(
            "aspects",
            f"the prompt {template.id!r} names no aspect: rate aspects with prin-guard's own "
            "wording (no rating prompt)",
        )
    if template.scale is not None and (item.scale.min, item.scale.max) != template.scale:
        low, high = template.scale
        raise InvalidItemError(
            "scale",
            f"the prompt {template.id!r} rates on {low}-{high}; the item asks "
            f"{item.scale.min}-{item.scale.max}",
        )
    texts = [text for name in _LEG_TEXTS if (text := getattr(template, name))]
    for found in {name for text in texts for name in _fields_of(text, "text")}:
        field = _canonical(found, template)
        if field in ("reference", "question") and not getattr(item, field).strip():
            raise InvalidItemError(field, f"required: the prompt {template.id!r} shows it")
        if field == "rubric" and not item.scale.rubric:
            raise InvalidItemError(
                "scale.rubric", f"required: the prompt {template.id!r} shows the rubric"
            )


def _render_rating_text(
    item: RatingItem, polarity: Polarity, template: Template, rubric_reversed: bool
) -> list[Message]:
    """A leg of a rating prompt of one's own: its texts filled with the item's fields, in
    one pass (the item's texts are never read for placeholders of their own)."""
    mirrored = polarity is Polarity.REVERSE
    rubric = [
        fill(template.rubric_line, {"level": level, "text": text})
        for level, text in (
            line.split(": ", 1)
            for line in item.scale.rubric_lines(mirrored=mirrored, reverse_order=rubric_reversed)
        )
    ]
    if rubric and template.rubric_header and item.context:
        rubric.insert(0, fill(template.rubric_header, {"context": item.context}))
    values = {
        "question": item.question,
        "response": item.response,
        "reference": item.reference,
        "context": item.context,
        "rubric": "\n".join(rubric),
        "min": str(item.scale.min),
        "max": str(item.scale.max),
    }
    for own, field in template.placeholders:
        values[own] = values[field]
    values.update(template.values)
    system, instruction = template.texts(polarity)
    user = fill(instruction, values)
    if mirrored and template.reverse_by == "mirror":
        user = MIRROR_NOTE.format(min=item.scale.min, max=item.scale.max) + user
    out: list[Message] = (
        [] if system is None else [{"role": "system", "content": fill(system, values)}]
    )
    out.append({"role": "user", "content": user})
    return out


# prin-guard's own rating wording (the template ``rating``): MT-Bench's single-answer
# grading ("Rating: [[5]]"), whose format the reader knows best; the reverse leg asks how
# poor the response is, on the scale mirrored, and says so in words (the paper's
# explanation of the negation, carried over: a judge that does not notice the mirror
# answers as if it were the direct question, which is the polarity confusion the verdict
# flags). Version 2 lays it out as the label templates are: the item first, then the
# leg's own instruction and rubric.

_SYSTEM = "You are a helpful assistant."

_DIRECT = (
    "Please act as an impartial judge and evaluate the quality of the response provided by "
    "an AI assistant to the user question displayed above. Your evaluation should consider "
    "{factors}.{reference} Begin your evaluation by providing a short "
    "explanation. Be as objective as possible. After providing your explanation, you must "
    "rate the response on a scale of {low} to {high}, where {low} means very poor and {high} "
    'means excellent, by strictly following this format: "[[rating]]", for example: '
    '"Rating: [[{example}]]".'
)
_REVERSE = (
    "Please act as an impartial judge and evaluate how poor the response provided by an AI "
    "assistant to the user question displayed above is. Your evaluation should consider "
    "{factors}.{reference} Begin your evaluation by providing a short "
    "explanation. Be as objective as possible. After providing your explanation, you must "
    "rate how poor the response is on a scale of {low} to {high}, where {low} means "
    "excellent and {high} means very poor, by strictly following this format: "
    '"[[rating]]", for example: "Rating: [[{example}]]". Note that this scale is mirrored: '
    "a higher number means a worse response, so an excellent response gets {low} and a "
    "very poor one gets {high}."
)
_REFERENCE = " Compare the response with the reference answer; identify and correct any mistakes."
_FACTORS = (
    "factors such as the helpfulness, relevance, accuracy, depth, creativity, and level of "
    "detail of the response"
)


def _ends(low: int, high: int, mirrored: bool) -> str:
    """What a scale's ends mean, as the prompts say it (mirrored: the worst at the top)."""
    if mirrored:
        return f"{low} means excellent and {high} means very poor"
    return f"{low} means very poor and {high} means excellent"


def _factors(item: RatingItem) -> str:
    """What the judge weighs: MT-Bench's factors, or the one aspect the item asks about."""
    if item.focus is None:
        return _FACTORS
    described = item.focus.description.rstrip(" .")
    return f'only the "{item.focus.name}" of the response' + (f": {described}" if described else "")


def _conversation(parts: list[str], item: RatingItem) -> list[Message]:
    """A rating leg's messages: the item first (its context, question, reference answer
    and the response, MT-Bench's blocks), what every leg of it shares byte for byte, then
    the leg's own instruction ``parts`` (its question, its scale, its rubric)."""
    shared: list[str] = []
    if item.context:
        shared.append(f"[Context]\n{item.context}")
    if item.question:
        shared.append(f"[Question]\n{item.question}")
    if item.reference:
        shared.append(
            f"[The Start of Reference Answer]\n{item.reference}\n[The End of Reference Answer]"
        )
    shared.append(
        f"[The Start of Assistant's Answer]\n{item.response}\n[The End of Assistant's Answer]"
    )
    return [
        {"role": "system", "content": _SYSTEM},
        {"role": "user", "content": "\n\n".join([*shared, *parts])},
    ]


_DIRECT_ASPECTS = (
    "Please act as an impartial judge and evaluate the quality of the response provided by "
    "an AI assistant to the user question displayed above, on each of the aspects listed "
    "below, each on its own scale.{reference} Begin your evaluation by providing a short "
    "explanation. Be as objective as possible. After providing your explanation, you must "
    "rate the response on every aspect, each on a line of its own, by strictly following "
    'this format: "<aspect>: [[rating]]", for example:\n{example}'
)
_REVERSE_ASPECTS = (
    "Please act as an impartial judge and evaluate how poor the response provided by an AI "
    "assistant to the user question displayed above is, on each of the aspects listed "
    "below, each on its own scale.{reference} Begin your evaluation by providing a short "
    "explanation. Be as objective as possible. After providing your explanation, you must "
    "rate how poor the response is on every aspect, each on a line of its own, by strictly "
    'following this format: "<aspect>: [[rating]]", for example:\n{example}\nNote that '
    "these scales are mirrored: a higher number means a worse response on that aspect, so "
    "an excellent response gets each scale's lowest number and a very poor one its highest."
)


def aspects_messages(item: RatingItem, polarity: Polarity) -> list[Message]:
    """The conversation of one leg of a rating whose aspects are asked together: every
    aspect with its scale (mirrored on the reverse leg), its description and its rubric,
    and one line per aspect asked of the reply."""
    mirrored = polarity is Polarity.REVERSE
    example = "\n".join(
        f"{aspect.name}: [[{(aspect.scale.min + aspect.scale.max + 1) // 2}]]"
        for aspect in item.aspects
    )
    words = (_REVERSE_ASPECTS if mirrored else _DIRECT_ASPECTS).format(
        reference=_REFERENCE if item.reference else "", example=example
    )
    lines = []
    rubrics = []
    for aspect in item.aspects:
        low, high = aspect.scale.min, aspect.scale.max
        ends = _ends(low, high, mirrored)
        described = aspect.description.rstrip(" .")
        lines.append(
            f'- "{aspect.name}", from {low} to {high}, where {ends}'
            + (f": {described}" if described else "")
        )
        rubric = aspect.scale.rubric_lines(mirrored=mirrored)
        if rubric:
            rubrics.append(f'[Score Rubric: "{aspect.name}"]\n' + "\n".join(rubric))
    return _conversation(
        ["[Instruction]\n" + words, "[Aspects]\n" + "\n".join(lines), *rubrics], item
    )


def rating_control(item: RatingItem, polarity: Polarity) -> str:
    """The last line of every follow-up turn of a rating leg (the probe's): the leg's own
    answer format, on its scale."""
    scale = item.scale
    ends = _ends(scale.min, scale.max, polarity is Polarity.REVERSE)
    example = (scale.min + scale.max + 1) // 2
    return (
        f"Give your rating on the scale of {scale.min} to {scale.max} ({ends}) by strictly "
        f'following this format: "[[rating]]", for example: "Rating: [[{example}]]".'
    )


# -- the bundled templates ------------------------------------------------------------------

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
        # A rating: MT-Bench's single-answer grading and its mirror (ours). Version 2:
        # the item first, each leg's instruction and rubric after it (as the task
        # templates), and an aspect's name quoted (version 1 started quoting unversioned).
        Template("rating", 2, task="rating"),
    )
}

DEFAULT_TEMPLATES: dict[str, str] = {
    "choice": "v0",
    "pairwise": "pairwise",
    "checklist": "criteria",
    "rating": "rating",
}
"""The template a task is asked in when the options name none."""
