"""Loaders of benchmark files, each in its original format.

Candidate datasets yield :class:`~prin_guard.datasets.LabeledItem`: MathQA, AQuA-RAT,
CommonsenseQA, MMLU, StrategyQA and Coin Flip (BIG-bench format), and GSM8K model
solutions (``choice`` items); LLMBar's Natural set and its MT-Bench subset (``pairwise``
items); ExpertQA's attributed answers (``checklist`` items of claims). Problem datasets
yield :class:`~prin_guard.datasets.Problem` (no candidates: a question and its reference
answer, the input for generating a candidate pool): GSM8K,
MultiArith, SVAMP, MATH / MATH-500 and Last Letters. Item ids and the handling of
malformed rows are described in the docstring of :mod:`prin_guard.datasets`, whose
registry names the candidate loaders; the generic JSONL format is in ``_jsonl``.
"""

from __future__ import annotations

import ast
import csv
import functools
import hashlib
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from prin_guard.datasets._rows import (
    LabeledItem,
    Problem,
    SkipHandler,
    _Bad,
    _build_all,
    _existing_file,
    _get,
    _handler,
    _json_document_rows,
    _jsonl_rows,
    _kind,
    _number_text,
    _reason,
    _RowError,
    _text,
    _warn_skip,
)
from prin_guard.errors import UsageError
from prin_guard.models import Candidate, Item

__all__ = [
    "EXPERTQA_SYSTEMS",
    "load_aqua_rat",
    "load_coinflip",
    "load_commonsenseqa",
    "load_expertqa_claims",
    "load_gsm8k",
    "load_gsm8k_solutions",
    "load_last_letters",
    "load_llmbar",
    "load_math",
    "load_mathqa",
    "load_mmlu",
    "load_mt_bench_human",
    "load_multiarith",
    "load_strategyqa",
    "load_svamp",
]


# --------------------------------------------------------------------------- MathQA

# "a ) 38 , b ) 27.675 , c ) 30": option text may itself contain commas.
_MATHQA_OPTION = re.compile(r"(?:^|,)\s*([a-e])\s*\)\s*")


def _mathqa_options(raw: str) -> list[tuple[str, str]]:
    text = raw.strip()
    if text.startswith("["):
        try:
            values = ast.literal_eval(text)
        except (ValueError, SyntaxError) as exc:
            raise _RowError(f"options list literal is not valid: {exc}") from None
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise _RowError("options list literal is not a list of strings")
        out = []
        for value in values:
            match = re.match(r"\s*([a-e])\s*\)\s*(.*)$", value, re.DOTALL)
            if not match:
                raise _RowError(f"option {value!r} has no letter")
            out.append((match.group(1), match.group(2).strip()))
        return out
    parts = _MATHQA_OPTION.split(text)
    # split gives ['', 'a', '38 ', 'b', '27.675 ', ...]
    if parts[0].strip():
        raise _RowError("options do not start with 'a )'")
    letters, texts = parts[1::2], parts[2::2]
    return [
        (letter, body.strip().rstrip(",").strip())
        for letter, body in zip(letters, texts, strict=True)
    ]


def _mathqa_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    options = _mathqa_options(_text(row, "options"))
    letters = [letter for letter, _ in options]
    if letters != list("abcde")[: len(letters)] or len(letters) < 2:
        raise _RowError(f"option letters {', '.join(letters)} are not a, b, c, ...")
    correct = str(_get(row, "correct")).strip().lower()
    if correct not in letters:
        raise _RowError(f"answer key {correct!r} is not one of the options")
    item = Item(
        question=_text(row, "problem"),
        candidates=tuple(Candidate(label=letter.upper(), text=text) for letter, text in options),
        id=f"mathqa-{line}",
    )
    return LabeledItem(item=item, gold=(correct.upper(),), line=line)


def load_mathqa(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """MathQA in the math-evaluation-harness JSONL format (letter key in ``correct``).

    ``options`` is one string ``"a ) 38 , b ) 27.675 , ..."`` or, in about 2% of rows, a
    Python list literal ``"['a ) 462 cm ²', ...]"``; both are read.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _mathqa_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- AQuA-RAT

_AQUA_OPTION = re.compile(r"\s*([A-Z])\s*\)(.*)$", re.DOTALL)


def _aqua_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    options = _get(row, "options")
    if not isinstance(options, list) or len(options) < 2:
        raise _RowError(f"field 'options' is {_kind(options)}, not a list of 2 or more options")
    candidates = []
    for number, option in enumerate(options, start=1):
        match = _AQUA_OPTION.match(option) if isinstance(option, str) else None
        if match is None:
            raise _RowError(f"option {number} ({option!r}) is not of the form 'A)text'")
        candidates.append(Candidate(label=match.group(1), text=match.group(2).strip()))
    letters = [c.label for c in candidates]
    expected = [chr(ord("A") + n) for n in range(len(candidates))]
    if letters != expected:
        raise _RowError(f"option letters {', '.join(map(str, letters))} are not A, B, C, ...")
    correct = _text(row, "correct").strip().upper()
    if correct not in letters:
        raise _RowError(f"answer key {correct!r} is not one of the options")
    item = Item(
        question=_text(row, "question"), candidates=tuple(candidates), id=f"aqua-rat-{line}"
    )
    return LabeledItem(item=item, gold=(correct,), line=line)


def load_aqua_rat(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """AQuA-RAT ``test.json`` / ``dev.json`` (JSON Lines despite the extension).

    ``options`` is ``["A)21", "B)22", ...]``; the answer key is the letter in ``correct``.
    The ``rationale`` (the worked solution of the correct option) is not used.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _aqua_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- CommonsenseQA


def _csqa_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    question = _get(row, "question")
    if not isinstance(question, dict):
        raise _RowError(f"field 'question' is {_kind(question)}, not an object")
    choices = _get(question, "choices", "question.")
    if not isinstance(choices, list):
        raise _RowError(f"field 'question.choices' is {_kind(choices)}, not a list")
    candidates = []
    for number, choice in enumerate(choices):
        if not isinstance(choice, dict):
            raise _RowError(f"choice {number} is {_kind(choice)}, not an object")
        where = f"question.choices.{number}."
        candidates.append(
            Candidate(label=_text(choice, "label", where), text=_text(choice, "text", where))
        )
    key = row.get("id")
    item = Item(
        question=_text(question, "stem", "question."),
        candidates=tuple(candidates),
        id=f"commonsenseqa-{key}" if isinstance(key, str) and key else f"commonsenseqa-{line}",
    )
    answer = _text(row, "answerKey").strip().upper()
    if answer not in item.labels:
        raise _RowError(f"answer key {answer!r} is not one of the labels {', '.join(item.labels)}")
    return LabeledItem(item=item, gold=(answer,), line=line)


def load_commonsenseqa(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """CommonsenseQA JSONL (``dev_rand_split.jsonl``): ``question.stem``,
    ``question.choices[{label, text}]`` and the answer letter in ``answerKey``."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _csqa_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- MMLU

_MMLU_SPLITS = ("dev", "val", "test")
_MMLU_COLUMNS = "question, A, B, C, D, answer"


def _mmlu_files(path: str | Path, split: str | None) -> list[Path]:
    root = Path(path)
    if split is not None and split not in _MMLU_SPLITS:
        raise UsageError(f"split: {split!r} is not one of {', '.join(_MMLU_SPLITS)}")
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise UsageError(f"path: no such file or directory {str(root)!r}")
    for base in (root, root / "data"):
        folder = base / (split or "test")
        if folder.is_dir():
            files = sorted(folder.glob("*.csv"))
            if not files:
                raise UsageError(f"path: no .csv files in {str(folder)!r}")
            return files
    files = sorted(root.glob("*.csv"))
    if split is not None:
        files = [f for f in files if f.stem.endswith(f"_{split}")]
    if not files:
        which = f"*_{split}.csv" if split else ".csv"
        raise UsageError(
            f"path: no MMLU {which} files in {str(root)!r} (nor a dev/val/test folder)"
        )
    return files


def _mmlu_subject(file: Path) -> str:
    stem = file.stem
    for split in _MMLU_SPLITS:
        if stem.endswith(f"_{split}"):
            return stem.removesuffix(f"_{split}")
    return stem


def _mmlu_rows(file: Path, on_skip: SkipHandler) -> Iterator[tuple[int, int, object]]:
    """``(start line, record number, row as an object)`` per CSV record of one file."""
    with file.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        record = 0
        while True:
            start = reader.line_num + 1
            try:
                fields = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                on_skip(start, f"{file.name}: not valid CSV: {exc}")
                continue
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue  # blank line
            record += 1
            if len(fields) != 6:
                on_skip(
                    start,
                    f"{file.name}: expected 6 columns ({_MMLU_COLUMNS}), got {len(fields)}",
                )
                continue
            yield (
                start,
                record,
                dict(zip(("question", "A", "B", "C", "D", "answer"), fields, strict=True)),
            )


def _mmlu_row(subject: str, line: int, record: int, row: dict[str, Any]) -> LabeledItem:
    answer = row["answer"].strip().upper()
    if answer not in ("A", "B", "C", "D"):
        raise _RowError(f"answer {row['answer']!r} is not A, B, C or D")
    item = Item(
        question=row["question"],
        candidates=tuple(Candidate(label=label, text=row[label]) for label in "ABCD"),
        id=f"mmlu-{subject}-{record}",
    )
    return LabeledItem(item=item, gold=(answer,), line=line)


def load_mmlu(
    path: str | Path, *, split: str | None = None, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """MMLU headerless CSV: ``question, A, B, C, D, answer``, one file per subject.

    ``path`` is one subject's file (``abstract_algebra_test.csv``) or a directory: a
    folder holding the ``dev``/``val``/``test`` folders (or their parent, the repository
    root with ``data/``) loads ``split`` (default ``test``); a folder of CSV files loads
    all of them, or only the ``*_<split>.csv`` ones when ``split`` is given. Files load in
    name order. Quoted fields may hold commas and newlines. ``line`` is per file, so skip
    reasons start with the file's name.
    """
    files = _mmlu_files(path, split)
    handler = _handler(on_skip, files[0] if len(files) == 1 else Path(path))
    return itertools.chain.from_iterable(_load_mmlu_file(file, handler) for file in files)


def _load_mmlu_file(file: Path, on_skip: SkipHandler) -> Iterator[LabeledItem]:
    subject = _mmlu_subject(file)

    def in_file(line: int, reason: str) -> None:
        on_skip(line, reason if reason.startswith(f"{file.name}: ") else f"{file.name}: {reason}")

    return _build_all(
        _mmlu_rows(file, on_skip),
        functools.partial(_mmlu_row, subject),
        in_file,
    )


# --------------------------------------------------------------------------- BIG-bench


def _strategyqa_row(line: int, index: int, row: dict[str, Any]) -> LabeledItem:
    scores = _get(row, "target_scores")
    if not isinstance(scores, dict) or len(scores) < 2:
        raise _RowError(f"field 'target_scores' is {_kind(scores)}, not an object of 2+ options")
    for option, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise _RowError(f"target_scores[{option!r}] is {_kind(score)}, not a number")
    best = max(scores.values())
    if best <= 0:
        raise _RowError("no option in 'target_scores' has a positive score")
    item = Item(
        question=_text(row, "input"),
        candidates=tuple(Candidate(text=option) for option in scores),
        id=f"strategyqa-{index}",
    )
    correct = [item.labels[n] for n, score in enumerate(scores.values()) if score == best]
    return LabeledItem(item=item, gold=tuple(correct), line=line)


def load_strategyqa(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """StrategyQA as a BIG-bench task (``task.json``): ``examples[{input, target_scores}]``.

    The options of ``target_scores`` ("Yes", "No") become the candidates in their order
    (A, B); gold is the option(s) with the highest score. Any BIG-bench multiple-choice
    task in this format loads the same way.
    """
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _strategyqa_row, _handler(on_skip, file))


def _coinflip_row(line: int, index: int, row: dict[str, Any]) -> LabeledItem:
    answer = _text(row, "answer").strip().lower()
    if answer not in ("yes", "no"):
        raise _RowError(f"answer {row['answer']!r} is not 'yes' or 'no'")
    item = Item(
        question=_text(row, "question"),
        candidates=(Candidate(text="yes"), Candidate(text="no")),
        id=f"coinflip-{index}",
    )
    return LabeledItem(item=item, gold=("A",) if answer == "yes" else ("B",), line=line)


def load_coinflip(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """Coin Flip (``coin_flip.json``): ``examples[{question, answer}]``; candidates
    ``yes`` (A) and ``no`` (B)."""
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _coinflip_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- GSM8K solutions

_GSM8K_SOLVERS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
_CALCULATOR = re.compile(r"<<[^<>]*>>")
_NO_FINAL_ANSWER = "(no final answer)"


def _final_answer(solution: str) -> str:
    """What follows the last ``A:`` line of a GSM8K model solution."""
    for text in reversed(solution.splitlines()):
        if text.startswith("A:"):
            return text[2:].strip() or _NO_FINAL_ANSWER
    return _NO_FINAL_ANSWER


def _gsm8k_solutions_row(line: int, _index: int, row: dict[str, Any]) -> LabeledItem:
    candidates = []
    correct = []
    for number, key in enumerate(_GSM8K_SOLVERS, start=1):
        entry = _get(row, key)
        if not isinstance(entry, dict):
            raise _RowError(f"field {key!r} is {_kind(entry)}, not an object")
        solution = _text(entry, "solution", f"{key}.")
        is_correct = _get(entry, "is_correct", f"{key}.")
        if not isinstance(is_correct, bool):
            raise _RowError(f"field '{key}.is_correct' is {_kind(is_correct)}, not a boolean")
        label = chr(ord("A") + number - 1)
        candidates.append(
            Candidate(
                label=label,
                text=f"Solution {number}: {_final_answer(solution)}",
                reasoning=_CALCULATOR.sub("", solution).strip(),
            )
        )
        if is_correct:
            correct.append(label)
    item = Item(
        question=_text(row, "question"), candidates=tuple(candidates), id=f"gsm8k-solutions-{line}"
    )
    return LabeledItem(item=item, gold=tuple(correct), line=line)


def load_gsm8k_solutions(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """GSM8K ``example_model_solutions.jsonl``: four labelled model solutions per question.

    Candidates ``"Solution 1: 18"`` ... ``"Solution 4: 4"`` with the solution as
    ``reasoning``; gold is the labels of the correct ones (0 to 4). See the docstring of
    :mod:`prin_guard.datasets` for why the candidate text carries the solution number.
    """
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _gsm8k_solutions_row, _handler(on_skip, file))


# --------------------------------------------------------------------------- LLMBar pairs

_LLMBAR_LABELS = {1: "A", 2: "B"}


def _llmbar_row(name: str, line: int, index: int, row: dict[str, Any]) -> LabeledItem:
    instruction = _text(row, "instruction" if "instruction" in row else "input")
    label = _get(row, "label")
    if isinstance(label, str) and label.strip() in ("1", "2"):
        label = int(label)
    if isinstance(label, bool) or label not in _LLMBAR_LABELS:
        raise _RowError(f"label {label!r} is not 1 or 2 (the better output)")
    key = row.get("id")
    item = Item(
        task="pairwise",
        question=instruction,
        candidates=(
            Candidate(label="A", text=_text(row, "output_1")),
            Candidate(label="B", text=_text(row, "output_2")),
        ),
        id=f"llmbar-{key}" if isinstance(key, str) and key else f"{name}-{index}",
    )
    if item.identical_pair:
        # a tie by construction, which the gold calls a win: the row contradicts itself
        raise _RowError(f"outputs 1 and 2 are the same text, yet label {label!r} calls one better")
    return LabeledItem(item=item, gold=(_LLMBAR_LABELS[label],), line=line)


def _load_llmbar_file(name: str, path: str | Path, on_skip: SkipHandler) -> Iterator[LabeledItem]:
    file = _existing_file(path)
    with file.open(encoding="utf-8-sig") as handle:
        head = handle.read(256).lstrip()
    # LLMBar's own dataset.json is one JSON list; the shared copies are JSON Lines
    rows = _json_document_rows(file, None) if head.startswith("[") else _jsonl_rows(file)
    return _build_all(rows, functools.partial(_llmbar_row, name), _handler(on_skip, file))


def load_llmbar(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[LabeledItem]:
    """LLMBar pairs (``natural.jsonl``, or LLMBar's own ``dataset.json``): an instruction
    and two outputs, the better one labelled 1 or 2.

    Each row is a ``pairwise`` item: ``question`` the instruction (``instruction``, or
    ``input`` in LLMBar's JSON), candidates ``output_1`` (A) and ``output_2`` (B); gold is
    the better one's label. There are no ties: LLMBar labels every pair with the
    objectively better output. Ids ``llmbar-<id>`` (``llmbar-natural-0``), or
    ``llmbar-<n>`` for rows without an id.
    """
    return _load_llmbar_file("llmbar", path, on_skip)


def load_mt_bench_human(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """LLMBar's MT-Bench subset (``mt-bench-human.jsonl``, or LLMBar's
    ``Processed/MT-Bench/dataset.json``): 200 pairs of MT-Bench answers whose gold is the
    experts' majority preference, read as :func:`load_llmbar` reads its pairs.

    MT-Bench's expert judgments include ties; LLMBar removed every pair whose majority
    was a tie before sampling these 200, so every gold here names one winner, and a
    verdict calling a pair a tie is wrong. Ids ``llmbar-<id>`` (``llmbar-mtbench-0``), or
    ``mt-bench-human-<n>`` for rows without an id.
    """
    return _load_llmbar_file("mt-bench-human", path, on_skip)


# --------------------------------------------------------------------------- ExpertQA claims

EXPERTQA_SYSTEMS = (
    "rr_sphere_gpt4",
    "rr_gs_gpt4",
    "post_hoc_sphere_gpt4",
    "post_hoc_gs_gpt4",
)
"""The ExpertQA systems whose claims cite passages (the others, ``gpt4`` and
``bing_chat``, cite bare URLs: there are no sources to check their claims against)."""
_SUPPORTED = "Complete"
_NOT_SUPPORTED = ("Partial", "Incomplete")
_CITATION = re.compile(r"\[(\d+)\]")


def _evidence_number(evidence: str) -> int:
    match = _CITATION.match(evidence.lstrip())
    return int(match.group(1)) if match else 10**6


def _question_key(question: str | None, line: int) -> str:
    # ExpertQA rows have no id; the question names the row in every file that holds it
    # (the lfqa splits, r2_compiled_anon.jsonl, the shipped sample)
    if question is None:
        return str(line)
    return hashlib.sha256(question.encode()).hexdigest()[:10]


def _expertqa_answer(
    line: int, question: str | None, system: str, answer: dict[str, Any]
) -> LabeledItem:
    where = f"answers.{system}."
    claims = _get(answer, "claims", where)
    if not isinstance(claims, list):
        raise _RowError(f"field '{where}claims' is {_kind(claims)}, not a list")
    kept: list[tuple[str, bool]] = []
    passages: list[str] = []
    for number, claim in enumerate(claims):
        if not isinstance(claim, dict):
            raise _RowError(f"{where}claims.{number} is {_kind(claim)}, not an object")
        support = claim.get("support")
        evidence = claim.get("evidence") or []
        if not isinstance(evidence, list) or not all(isinstance(e, str) for e in evidence):
            raise _RowError(f"field '{where}claims.{number}.evidence' is not a list of strings")
        # "N/A": the expert judged the claim needs no support; "Missing": it cites
        # nothing. Neither says whether the sources support it.
        if support not in (_SUPPORTED, *_NOT_SUPPORTED) or not evidence:
            continue
        text = _text(claim, "claim_string", f"{where}claims.{number}.").strip()
        kept.append((text, support == _SUPPORTED))
        passages += [e.strip() for e in evidence if e.strip() and e.strip() not in passages]
    if not kept:
        raise _RowError(f"{system}: no claim with cited passages and a support label")
    context = "\n\n".join(sorted(passages, key=_evidence_number))
    item = Item(
        task="checklist",
        question=question,
        response=_text(answer, "answer_string", where).strip(),
        context=context,
        candidates=tuple(Candidate(text=text) for text, _ in kept),
        id=f"expertqa-claims-{_question_key(question, line)}-{system}",
    )
    gold = tuple(label for label, (_, met) in zip(item.labels, kept, strict=True) if met)
    return LabeledItem(item=item, gold=gold, line=line)


def _expertqa_rows(file: Path, on_skip: SkipHandler) -> Iterator[LabeledItem]:
    for line, _index, row in _jsonl_rows(file):
        try:
            if isinstance(row, _Bad):
                raise _RowError(row.reason)
            if not isinstance(row, dict):
                raise _RowError(f"the row is {_kind(row)}, not a JSON object")
            answers = _get(row, "answers")
            if not isinstance(answers, dict):
                raise _RowError(f"field 'answers' is {_kind(answers)}, not an object")
            question = row.get("question")
            question = question.strip() if isinstance(question, str) and question.strip() else None
        except _RowError as exc:
            on_skip(line, str(exc))
            continue
        systems = [system for system in answers if system in EXPERTQA_SYSTEMS]
        if not systems:
            on_skip(
                line,
                f"no answer with cited passages (systems {', '.join(answers) or 'none'}; "
                f"passages come with {', '.join(EXPERTQA_SYSTEMS)})",
            )
        for system in systems:
            answer = answers[system]
            try:
                if not isinstance(answer, dict):
                    raise _RowError(f"answers.{system} is {_kind(answer)}, not an object")
                yield _expertqa_answer(line, question, system, answer)
            except (ValueError, KeyError, TypeError) as exc:
                on_skip(line, _reason(exc))


def load_expertqa_claims(
    path: str | Path, *, on_skip: SkipHandler = _warn_skip
) -> Iterator[LabeledItem]:
    """ExpertQA answers as claim checklists (``data/lfqa/*.jsonl`` or
    ``data/r2_compiled_anon.jsonl`` of chaitanyamalaviya/ExpertQA): which claims do the
    cited passages support?

    One ``checklist`` item per answer of a system that cites passages
    (:data:`EXPERTQA_SYSTEMS`): ``response`` the answer string, ``question`` the
    expert's question, ``context`` the passages its claims cite (each once, in the
    order of their ``[n]`` numbers), and the claims as candidates, in order. Ask it with
    the ``claims`` template. Gold per claim from the expert's ``support`` label:
    ``Complete`` is supported; ``Partial`` and ``Incomplete`` are not (as ExpertQA's own
    evaluation counts them). Claims labelled ``N/A`` (no support needed) and claims
    citing nothing (``Missing``) are left out: the expert judged a claim against its own
    citations, and a claim with none has no such judgment. An answer left with no claim
    is skipped. Ids ``expertqa-claims-<key>-<system>``, ``key`` the first 10 hex digits of
    the question's sha256 (the same in every file holding the question; the line number for
    a row without one).
    """
    file = _existing_file(path)
    return _expertqa_rows(file, _handler(on_skip, file))


# --------------------------------------------------------------------------- problem datasets


def _gsm8k_problem(line: int, _index: int, row: dict[str, Any]) -> Problem:
    solution = _text(row, "answer")
    if "####" not in solution:
        raise _RowError("field 'answer' has no '#### <answer>' line")
    answer = solution.rsplit("####", 1)[1].strip().replace(",", "")
    if not answer:
        raise _RowError("the '####' line of 'answer' is empty")
    return Problem(question=_text(row, "question"), answer=answer, id=f"gsm8k-{line}", line=line)


def load_gsm8k(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """GSM8K ``test.jsonl``: the answer is the text after ``####`` (thousands separators
    removed: ``"5,600"`` becomes ``"5600"``)."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _gsm8k_problem, _handler(on_skip, file))


def _multiarith_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    solutions = _get(row, "lSolutions")
    if not isinstance(solutions, list):
        raise _RowError(f"field 'lSolutions' is {_kind(solutions)}, not a list")
    if not solutions:
        raise _RowError("field 'lSolutions' is empty")
    key = row.get("iIndex")
    return Problem(
        question=_text(row, "sQuestion").strip(),
        answer=_number_text(solutions[0], "lSolutions"),
        id=f"multiarith-{key if isinstance(key, int) else index}",
        line=line,
    )


def load_multiarith(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """MultiArith (``MultiArith.json``, a JSON list): ``sQuestion``, answer
    ``lSolutions[0]``; ids ``multiarith-<iIndex>``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, None)
    return _build_all(rows, _multiarith_problem, _handler(on_skip, file))


def _svamp_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    key = row.get("ID")
    return Problem(
        question=f"{_text(row, 'Body').strip()} {_text(row, 'Question').strip()}",
        answer=_number_text(_get(row, "Answer"), "Answer"),
        id=f"svamp-{key}" if isinstance(key, str) and key else f"svamp-{index}",
        line=line,
    )


def load_svamp(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """SVAMP (``SVAMP.json``, a JSON list): question ``Body + " " + Question``, numeric
    ``Answer``; ids ``svamp-<ID>``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, None)
    return _build_all(rows, _svamp_problem, _handler(on_skip, file))


def _last_boxed(text: str) -> str | None:
    """The contents of the last ``\\boxed{...}`` (or ``\\fbox{...}``), braces matched."""
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    begin = text.index("{", start) + 1
    depth = 1
    pos = begin
    while pos < len(text) and depth:
        if text[pos] == "{":
            depth += 1
        elif text[pos] == "}":
            depth -= 1
        pos += 1
    return text[begin : pos - 1].strip() if depth == 0 else None


def _math_problem(line: int, _index: int, row: dict[str, Any]) -> Problem:
    if "answer" in row:
        answer = _text(row, "answer").strip()
    else:
        boxed = _last_boxed(_text(row, "solution"))
        if not boxed:
            raise _RowError("no 'answer' field and no \\boxed{...} answer in 'solution'")
        answer = boxed
    unique_id, idx = row.get("unique_id"), row.get("idx")
    if isinstance(unique_id, str) and unique_id:
        key = unique_id
    elif isinstance(idx, int) and not isinstance(idx, bool):
        key = str(idx)
    else:
        key = str(line)
    return Problem(question=_text(row, "problem"), answer=answer, id=f"math-{key}", line=line)


def load_math(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """MATH ``test.jsonl`` (answer = contents of the last ``\\boxed{}`` in ``solution``) or
    MATH-500 (explicit ``answer`` field). Ids ``math-<idx>`` or ``math-<unique_id>``."""
    file = _existing_file(path)
    return _build_all(_jsonl_rows(file), _math_problem, _handler(on_skip, file))


def _last_letters_problem(line: int, index: int, row: dict[str, Any]) -> Problem:
    return Problem(
        question=_text(row, "question"),
        answer=_text(row, "answer").strip(),
        id=f"last-letters-{index}",
        line=line,
    )


def load_last_letters(path: str | Path, *, on_skip: SkipHandler = _warn_skip) -> Iterator[Problem]:
    """Last Letter Concatenation (``last_letters.json``): ``examples[{question, answer}]``."""
    file = _existing_file(path)
    rows = _json_document_rows(file, "examples")
    return _build_all(rows, _last_letters_problem, _handler(on_skip, file))
