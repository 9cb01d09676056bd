"""A golden record of what the guard gives (issue 39, item 5): so a refactor of the route
can show that verdicts, readings, cache keys and prompts are unchanged.

Recorded, each as one JSON line ``{"case": ..., "value": ...}`` under tests/data/golden/:

- ``readings``: every reply of the test corpora read by ``read_reply`` as the guard reads a
  leg: tests/data/replies (the label corpora with each judge family's template, the single
  ratings, the multi-aspect ratings) and ../shared/data/llmbar's 1,000 recorded LLMBar
  judgments (skipped, and said, when ../shared/data is absent).
- ``verdicts``: the same replies through the guard, a scripted judge answering every leg
  with the recorded reply (the route: plan, ask, read, reconcile, verdict; a pair's
  default checks ask four legs, a rating's two; LLMBar's, both questions only);
  SummEval's first articles rated on each aspect by the oracle judge of
  tests/test_eval_ratings.py (the experts' mean, confused by the mirror at 3 or less);
  and on every fixed item below, the order check (a rating's on its rubric), a panel
  with a member that says nothing readable, the progressive probe and the re-ask.
- ``keys``: every bundled template and pack, and every rating prompt (prin-guard's
  wording and the packs), on fixed items: ``Guard.cache_keys`` where it exists, the keys
  a check stores in the cache (sorted), and each leg's messages from ``Guard.prompts``
  with what the reader looks for; a set-up the guard refuses is recorded with its error.
- ``examples``: the stdout of each example that runs with its stand-in judge.

What varies from run to run is left out: each leg's ``latency_ms``. A field the models
gained after the record was written counts as no change where it is unset (null, empty).
A text of more than 200 characters that is the item's or the reply's own (``raw_text``,
candidates' texts) is kept as its length and sha256: it is the input, and it keeps the
files small; prompts are kept whole (their wording is what the keys hash).

    PYTHONPATH=. .venv/bin/python -m bench.golden             # compare with the record
    PYTHONPATH=. .venv/bin/python -m bench.golden --update    # write the record again

``tests/test_golden.py`` compares in the test suite and prints the first differences.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import difflib
import gzip
import hashlib
import io
import json
import runpy
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from prin_guard import Guard, Item, read_reply
from prin_guard._prompting._prompts import TEMPLATES, packs
from prin_guard.errors import PrinGuardError
from prin_guard.judges import JudgeResponse
from prin_guard.models import Message

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
REPLIES = ROOT / "tests" / "data" / "replies"
SHARED = ROOT.parent / "shared" / "data"
SUMMEVAL_ARTICLES = 4
"""SummEval articles rated per aspect (16 summaries each)."""
FILES = ("readings", "verdicts", "keys", "examples")
"""Each group's file: ``<name>.jsonl.gz`` (gzip, its header's time zero: the same record
gives the same bytes)."""
LONG = 200

Entry = tuple[str, Any]


# -- what is recorded, and how ------------------------------------------------------------


def stable(value: Any, *, key: str = "") -> Any:
    """``value`` as recorded: timing left out, long input texts as their length and hash."""
    if isinstance(value, Mapping):
        return {k: stable(v, key=k) for k, v in value.items() if k != "latency_ms"}
    if isinstance(value, list | tuple):
        return [stable(v, key=key) for v in value]
    if isinstance(value, str) and len(value) > LONG and key in _INPUT_TEXTS:
        return f"<{len(value)} chars, sha256 {hashlib.sha256(value.encode()).hexdigest()[:16]}>"
    return value


# texts that are the item's or the reply's own (the input), not what the guard made
_INPUT_TEXTS = frozenset(
    {"raw_text", "text", "winner_text", "correct_texts", "reply", "question", "response"}
)


class Scripted:
    """A judge answering every call with ``reply`` (set before each check), or with what
    ``answer`` makes of the conversation."""

    def __init__(self, answer: Callable[[str], str] | None = None, name: str = "golden") -> None:
        self.reply: str = ""
        self.answer = answer
        self.name = name

    def identity(self) -> dict[str, Any]:
        return {"kind": "golden", "name": self.name}

    async def complete(
        self, messages: Sequence[Message], *, labels: Sequence[str] = ()
    ) -> JudgeResponse:
        if self.answer is not None:
            prompt = "\n\n".join(m["content"] for m in messages)
            return JudgeResponse(text=self.answer(prompt))
        return JudgeResponse(text=self.reply)


class KeptCache:
    """A cache that keeps what the guard stores (the keys are what is recorded)."""

    def __init__(self) -> None:
        self.store: dict[str, str] = {}

    async def get_many(self, keys: Sequence[str]) -> list[str | None]:
        return [self.store.get(key) for key in keys]

    async def set_many(self, entries: Mapping[str, str]) -> None:
        self.store.update(entries)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def _error(exc: Exception) -> dict[str, str]:
    return {"error": type(exc).__name__, "message": str(exc)}


# -- the corpora ----------------------------------------------------------------------------


def _label_corpus() -> list[tuple[str, str, Item, Any]]:
    """tests/data/replies' label records: (id, reply, item, template), as
    bench.reader_corpus reads them."""
    from bench.reader_corpus import FAMILIES, item_of, records

    out = []
    for record in records(REPLIES):
        family = record["family"]
        template = FAMILIES.get(f"{family}-{record['task']}") or FAMILIES[family]
        out.append((record["id"], record["reply"], item_of(record), template))
    return out


def _rating_corpus() -> list[tuple[str, str, dict[str, Any]]]:
    """tests/data/replies/ratings' records: (id, reply, rating item)."""
    out = []
    for path in sorted((REPLIES / "ratings").glob("*.jsonl")):
        if path.name == "declared.jsonl":
            continue
        for record in _jsonl(path):
            given = record.get("item") or {}
            item = {
                "task": "rating",
                "question": given.get("question") or "(question not recorded)",
                "response": given.get("response") or "(response not recorded)",
                "scale": {**record["scale"], "decimals": True},
            }
            if given.get("reference"):
                item["reference"] = given["reference"]
            out.append((record["id"], record["reply"], item))
    return out


def _aspect_corpus() -> list[tuple[str, str, dict[str, Any]]]:
    """tests/data/replies/ratings-aspects' records, cut into items of at most 32 aspects
    of names of at most 128 characters (as tests/test_rating_aspects_real.py asks them)."""
    out = []
    for path in sorted((REPLIES / "ratings-aspects").glob("*.jsonl")):
        for record in _jsonl(path):
            names = [a if isinstance(a, str) else a["name"] for a in record["aspects"]]
            askable = [a for a, n in zip(record["aspects"], names, strict=True) if len(n) <= 128]
            for start in range(0, len(askable), 32):
                item = {
                    "task": "rating",
                    "response": "placeholder",
                    "scale": record["scale"],
                    "aspects": askable[start : start + 32],
                }
                out.append((f"{record['id']}:{start}", record["reply"], item))
    return out


def _llmbar() -> list[tuple[str, str, Item]]:
    """../shared/data/llmbar's recorded judgments: (id, reply, the pair as shown)."""
    folder = SHARED / "llmbar"
    if not (folder / "natural-recorded-judges.jsonl").is_file():
        return []
    items = {item["id"]: item for item in _jsonl(folder / "natural.jsonl")}
    out = []
    for record in _jsonl(folder / "natural-recorded-judges.jsonl"):
        item = items[record["id"]]
        shown = ["output_1", "output_2"]
        if record["shown_order"] == "2-1":
            shown.reverse()
        pair = Item(
            task="pairwise",
            question=item["instruction"],
            candidates=[item[name] for name in shown],
            id=f"{record['id']}:{record['shown_order']}",
        )
        case = f"{record['id']}:{record['judge']}:{record['shown_order']}"
        out.append((case, record["reply"], pair))
    return out


# -- the groups -----------------------------------------------------------------------------


def readings() -> list[Entry]:
    from bench.reader_corpus import FAMILIES

    out: list[Entry] = []
    for case, reply, item, template in _label_corpus():
        for polarity in ("direct", "reverse"):
            reading = read_reply(reply, item, template=template, polarity=polarity)
            out.append((f"corpus:{case}:{polarity}", reading.model_dump(mode="json")))
    for case, reply, rated in _rating_corpus():
        for polarity in ("direct", "reverse"):
            reading = read_reply(reply, rated, polarity=polarity)
            out.append((f"rating:{case}:{polarity}", reading.model_dump(mode="json")))
    for case, reply, rated in _aspect_corpus():
        reading = read_reply(reply, rated)
        out.append((f"aspects:{case}", reading.model_dump(mode="json")))
    llmbar = FAMILIES["llmbar-cot"]
    for case, reply, pair in _llmbar():
        reading = read_reply(reply, pair, template=llmbar)
        out.append((f"llmbar:{case}", reading.model_dump(mode="json")))
    return [(case, stable(value)) for case, value in out]


async def _verdicts() -> list[Entry]:
    from bench.reader_corpus import FAMILIES

    out: list[Entry] = []
    judge = Scripted()

    async def verdict(guard: Guard, reply: str, item: Any) -> Any:
        judge.reply = reply
        try:
            return (await guard.acheck(item)).model_dump(mode="json")
        except PrinGuardError as exc:
            return _error(exc)

    guards: dict[str, Guard] = {}
    for case, reply, item, template in _label_corpus():
        guard = guards.get(template.id)
        if guard is None:  # a family named as a pack is asked under an id of its own
            own = dataclasses.replace(template, id=f"corpus-{template.id}")
            guard = guards[template.id] = Guard(judge, template=own, cache=None)
        out.append((f"corpus:{case}", await verdict(guard, reply, item)))
    own = Guard(judge, cache=None)
    for case, reply, rated in _rating_corpus():
        out.append((f"rating:{case}", await verdict(own, reply, rated)))
    together = Guard(judge, cache=None, rating_aspects="together")
    for case, reply, rated in _aspect_corpus():
        out.append((f"aspects:{case}", await verdict(together, reply, rated)))
    # both questions only: the order check's legs are the corpora's (it keeps the test fast)
    llmbar = Guard(judge, template=FAMILIES["llmbar-cot"], cache=None, checks="reverse")
    for case, reply, pair in _llmbar():
        out.append((f"llmbar:{case}", await verdict(llmbar, reply, pair)))
    out += await _summeval()
    out += await _checks()
    return [(case, stable(value)) for case, value in out]


async def _summeval() -> list[Entry]:
    """SummEval's first articles on each aspect, rated by tests/test_eval_ratings.py's
    oracle judge (the experts' mean, rounded; the same number on both legs at 3 or less)."""
    from prin_guard.eval._ratings import ASPECTS, load_summeval

    path = SHARED / "ratings" / "summeval.jsonl"
    if not path.is_file():
        return []
    out: list[Entry] = []
    for aspect in ASPECTS:
        rated = load_summeval(path, aspect, articles=SUMMEVAL_ARTICLES)
        humans = {entry.item["response"]: entry.human for entry in rated}

        def oracle(prompt: str, humans: dict[str, float] = humans) -> str:
            summary = prompt.split("[The Start of Assistant's Answer]\n", 1)[1]
            human = humans[summary.split("\n[The End of Assistant's Answer]", 1)[0]]
            score = max(1, min(5, round(human)))
            if "how poor the response" in prompt and human > 3:
                return f"Rating: [[{6 - score}]]"
            return f"Rating: [[{score}]]"

        guard = Guard(Scripted(oracle), cache=None)
        verdicts = await guard.acheck_many([entry.item for entry in rated])
        for number, verdict in enumerate(verdicts):
            out.append((f"summeval:{aspect}:{number}", verdict.model_dump(mode="json")))
    return out


def _rater(prompt: str) -> str:
    """7 on the direct leg, 4 on the mirrored one (7 read back), every aspect at once too;
    "Answer: A" to a label question, "Answer: B" to its reverse."""
    if "rate" in prompt or "Rating" in prompt or "[RESULT]" in prompt:
        mirrored = "how poor" in prompt or "mirrored" in prompt
        score = "4" if mirrored else "7"
        aspects = "\n".join(f"{name}: [[{score}]]" for name in ("coherence", "fluency"))
        return f"{aspects}\nRating: [[{score}]]"
    return "Answer: B" if "incorrect" in prompt or "worse" in prompt else "Answer: A"


async def _checks() -> list[Entry]:
    """The checks beside the reverse one on scripted answers, on every fixed item: the
    order check (a rating's on its rubric), a panel with a member that says nothing
    readable, the progressive probe, the re-ask of an unreadable reply."""
    out: list[Entry] = []
    one, other = Scripted(_rater, "rater"), Scripted(lambda prompt: "No idea.", "silent")
    for name, item in ITEMS.items():
        for setup, guard in (
            ("order", Guard(one, cache=None, checks="reverse,order")),
            ("panel", Guard([one, other], cache=None)),
            ("probe", Guard(one, cache=None, probe="progressive")),
            ("reask", Guard(other, cache=None, reask=True)),
        ):
            try:
                value = (await guard.acheck(item)).model_dump(mode="json")
            except PrinGuardError as exc:
                value = _error(exc)
            out.append((f"checks:{setup}:{name}", value))
    return out


# -- fixed items for the keys and the prompts -------------------------------------------------

ITEMS: dict[str, Any] = {
    "choice": Item(
        task="choice",
        question="Which of these numbers are prime?",
        candidates=["2", "4", "7"],
        id="golden-choice",
    ),
    "choice-no-id": Item(
        task="choice", question="Capital of France?", candidates=["Paris", "Rome"]
    ),
    "pairwise": Item(
        task="pairwise",
        question="Name the capital of France; explain briefly.",
        candidates=["Lyon, a better city.", "Paris: it has been the capital since 987."],
        id="golden-pair",
    ),
    "pairwise-context": Item(
        task="pairwise",
        question="Summarize the passage.",
        context="The council approved the budget on Monday after a long debate.",
        candidates=["The budget passed.", "The council met."],
    ),
    "checklist": Item(
        task="checklist",
        question="Explain photosynthesis.",
        response="Plants turn light, water and carbon dioxide into sugar and oxygen.",
        candidates=["Mentions light", "Mentions oxygen", "Mentions chlorophyll"],
        id="golden-checklist",
    ),
    "claims": Item(
        task="checklist",
        kind="claims",
        context="Paris is the capital of France. It has about two million inhabitants.",
        response="Paris is France's capital and has ten million inhabitants.",
        candidates=["Paris is the capital of France.", "Paris has ten million inhabitants."],
        id="golden-claims",
    ),
    "rating": {
        "task": "rating",
        "question": "Name the capital of France.",
        "response": "Paris.",
        "scale": {"min": 1, "max": 10},
        "id": "golden-rating",
    },
    "rating-reference": {
        "task": "rating",
        "question": "What is 12 * 12?",
        "response": "144.",
        "reference": "144",
        "scale": {"min": 1, "max": 10},
    },
    "rating-rubric": {
        "task": "rating",
        "question": "Explain photosynthesis.",
        "response": "Plants make sugar from light.",
        "context": "Is the explanation accurate and complete?",
        "scale": {"min": 1, "max": 5, "rubric": {str(n): f"level {n} of 5" for n in range(1, 6)}},
    },
    "rating-aspects": {
        "task": "rating",
        "question": "Summarize the article.",
        "response": "The council approved the budget on Monday.",
        "scale": {"min": 1, "max": 5},
        "aspects": ["coherence", "fluency"],
    },
}


def _setups() -> Iterator[tuple[str, dict[str, Any], list[str]]]:
    """(name, guard options, the items asked): every bundled template and pack with its
    task's items, under each task's default checks, the order check and the mitigations;
    prin-guard's rating wording and each rating pack with the rating items."""
    by_task = {
        "choice": ["choice", "choice-no-id"],
        "pairwise": ["pairwise", "pairwise-context"],
        "checklist": ["checklist", "claims"],
    }
    for name, template in {**TEMPLATES, **packs()}.items():
        if template.task == "rating":
            continue  # below, with the rating items
        if template.task == "ranking":
            continue  # the record holds no ranking item; tests/test_ranking_packs.py has them
        items = by_task[template.task]
        yield f"template:{name}", {"template": name}, items
        yield f"template:{name}:order", {"template": name, "checks": "reverse,order"}, items
        yield (
            f"template:{name}:cot,neg_exp",
            {"template": name, "mitigations": ["cot", "neg_exp"]},
            items,
        )
    yield "default", {}, [*by_task["choice"], *by_task["pairwise"], *by_task["checklist"]]
    rated = ["rating", "rating-reference", "rating-rubric", "rating-aspects"]
    yield "rating", {}, rated
    yield "rating:order", {"checks": "reverse,order"}, rated
    yield "rating:together", {"rating_aspects": "together"}, ["rating-aspects"]
    for name in (name for name, t in packs().items() if t.task == "rating"):
        yield f"rating:{name}", {"template": name}, rated
        yield f"rating:{name}:order", {"template": name, "checks": "reverse,order"}, rated


async def _keys() -> list[Entry]:
    out: list[Entry] = []
    judge = Scripted(_rater, "keys")
    for setup, options, names in _setups():
        for name in names:
            case = f"{setup}:{name}"
            try:
                cache = KeptCache()
                guard = Guard(judge, cache=cache, **options)  # type: ignore[arg-type]
                item = ITEMS[name]
                value: dict[str, Any] = {}
                with contextlib.suppress(PrinGuardError):  # ratings have none: said below
                    value["cache_keys"] = guard.cache_keys(item)
                value["legs"] = [
                    {"leg": leg.name, "messages": leg.messages, "reads": leg.reads}
                    for leg in guard.prompts(item)
                ]
                await guard.acheck(item)
                value["stored"] = sorted(cache.store)
            except PrinGuardError as exc:
                value = _error(exc)
            out.append((case, value))
    return out


# -- the examples ----------------------------------------------------------------------------

EXAMPLES = [
    ["compare_models/compare.py"],
    ["rubric/grade_answers.py"],
    ["ratings/rate_responses.py"],
    ["ranking/rank_responses.py"],
    ["rag_claims/check_claims.py", "--limit", "3"],
    ["peer_review/checklist.py"],
    ["peer_review/guarded_review.py"],
    ["own_prompt/guard_mt_bench.py"],
    ["own_prompt/guard_mt_bench.py", "--show-prompts"],
    ["own_prompt/guard_mt_bench.py", "--template", "examples/own_prompt/my_prompt.toml"],
]
"""The examples that run with their stand-in judge (no model), as tests/test_examples.py
runs them."""


def examples() -> list[Entry]:
    out: list[Entry] = []
    for script, *args in EXAMPLES:
        path = ROOT / "examples" / script
        printed = io.StringIO()
        argv, sys.argv = sys.argv, [str(path), *args]
        sys.path.insert(0, str(path.parent))
        loaded = set(sys.modules)
        try:
            with contextlib.redirect_stdout(printed), contextlib.suppress(SystemExit):
                runpy.run_path(str(path), run_name="__main__")
        finally:
            sys.argv = argv
            sys.path.remove(str(path.parent))
            # the example's own modules ("responses", "answers") leave with it
            for name in set(sys.modules) - loaded:
                where = getattr(sys.modules[name], "__file__", None) or ""
                if where.startswith(str(path.parent)):
                    del sys.modules[name]
        out.append((" ".join([script, *args]), printed.getvalue().splitlines()))
    return out


# -- recording and comparing ----------------------------------------------------------------


def compute() -> dict[str, list[Entry]]:
    """Every group, computed now."""

    async def both() -> tuple[list[Entry], list[Entry]]:
        return await _verdicts(), await _keys()

    verdicts, keys = asyncio.run(both())
    return {"readings": readings(), "verdicts": verdicts, "keys": keys, "examples": examples()}


def _line(case: str, value: Any) -> str:
    return json.dumps({"case": case, "value": value}, ensure_ascii=False, sort_keys=True)


def write(groups: Mapping[str, list[Entry]], folder: Path = GOLDEN) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, entries in groups.items():
        text = "".join(_line(case, value) + "\n" for case, value in entries)
        with (
            (folder / f"{name}.jsonl.gz").open("wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as packed,
        ):
            packed.write(text.encode("utf-8"))


def recorded(name: str, folder: Path = GOLDEN) -> list[Entry]:
    path = folder / f"{name}.jsonl.gz"
    if not path.is_file():
        return []
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()
    return [(entry["case"], entry["value"]) for entry in map(json.loads, lines)]


_UNSET_VALUES: tuple[Any, ...] = (None, {}, [])


def _new_defaults_left_out(recorded: Any, now: Any) -> Any:
    """``now`` without the fields the record does not have and that hold no value now
    (null, an empty object or list): a field the models gained since the record (a
    ranking's on a pairwise verdict) is no change of what the guard gives; a new field
    with a value is."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        return {
            key: _new_defaults_left_out(recorded.get(key), value)
            for key, value in now.items()
            if key in recorded or value not in _UNSET_VALUES
        }
    if isinstance(recorded, list) and isinstance(now, list) and len(recorded) == len(now):
        return [_new_defaults_left_out(a, b) for a, b in zip(recorded, now, strict=True)]
    return now


def differences(name: str, now: list[Entry], before: list[Entry], *, shown: int = 5) -> list[str]:
    """What differs between the record and now, readably: the cases only one side has,
    and a diff of the first ``shown`` changed values (fields the models gained since the
    record, unset here, left out: :func:`_new_defaults_left_out`)."""
    old = dict(before)
    new = {case: _new_defaults_left_out(old.get(case), value) for case, value in now}
    lines: list[str] = []
    missing = [case for case in old if case not in new]
    added = [case for case in new if case not in old]
    changed = [case for case in old if case in new and old[case] != new[case]]
    if not (missing or added or changed):
        return []
    lines.append(
        f"{name}: {len(changed)} changed, {len(missing)} gone, {len(added)} new "
        f"(of {len(old)} recorded)"
    )
    for label, cases in (("gone", missing), ("new", added)):
        if cases:
            lines.append(
                f"  {label}: {', '.join(cases[:shown])}" + (" ..." if len(cases) > shown else "")
            )
    for case in changed[:shown]:
        before_text = json.dumps(old[case], indent=1, sort_keys=True, ensure_ascii=False)
        after_text = json.dumps(new[case], indent=1, sort_keys=True, ensure_ascii=False)
        diff = difflib.unified_diff(
            before_text.splitlines(), after_text.splitlines(), "recorded", "now", lineterm="", n=2
        )
        lines.append(f"  -- {case}")
        lines += [f"    {line}" for line in diff]
    if len(changed) > shown:
        lines.append(
            f"  ... and {len(changed) - shown} more changed: "
            + ", ".join(changed[shown : shown + 10])
        )
    return lines


def absent() -> tuple[str, ...]:
    """The groups of cases left out of a run here: those of ../shared/data when it is
    absent (a clone without the project's data)."""
    return () if SHARED.is_dir() else ("llmbar:", "summeval:")


def compare(groups: Mapping[str, list[Entry]], *, shown: int = 5) -> list[str]:
    """Every group's differences from the record (the cases of data absent here aside)."""
    left_out = absent()
    found = []
    for name in FILES:
        before = [entry for entry in recorded(name) if not entry[0].startswith(left_out)]
        found += differences(name, groups[name], before, shown=shown)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the record again")
    parser.add_argument("--shown", type=int, default=5, help="changed cases shown per group")
    args = parser.parse_args(argv)
    groups = compute()
    if absent():
        print(f"note: {SHARED} absent: LLMBar and SummEval left out", file=sys.stderr)
        if args.update:
            print("--update needs ../shared/data: the record would lose its cases", file=sys.stderr)
            return 2
    if args.update:
        write(groups)
        for name, entries in groups.items():
            size = (GOLDEN / f"{name}.jsonl.gz").stat().st_size
            print(f"{name}: {len(entries)} cases, {size:,} bytes")
        return 0
    found = compare(groups, shown=args.shown)
    counts = ", ".join(f"{name} {len(groups[name])}" for name in FILES)
    print("\n".join(found) if found else f"unchanged: {counts}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
