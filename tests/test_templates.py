"""Judge prompts of one's own (issue 29): a template from its text, checked when it is made;
the reverse leg derived by word flips (never in the item's text) or given; the packs of
prompts people run, each rendering what its source project renders, byte for byte; a
guarded MT-Bench prompt; a prompt of a kind not shipped described and read right."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from prin_guard import Guard, Item, Template, UsageError, read_reply
from prin_guard._prompting._prompts import get_template, packs
from prin_guard.models import AnswerContract, FirstLine, Polarity, ScoresFormat, Tag

DATA = Path(__file__).parent / "data" / "packs"
PAIR = Item(
    task="pairwise",
    question="Name the capital of France; explain briefly.",
    candidates=["Lyon, a better city.", "Paris: it has been the capital since 987."],
)


def _source(name: str) -> dict[str, Any]:
    prompts: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))["prompts"]
    return prompts


# -- packs: what the source project renders, byte for byte ------------------------------


def test_mt_bench_pair_renders_what_fastchat_renders() -> None:
    source = _source("fastchat-judge-prompts.json")["pair-v2"]
    a, b = (candidate.text for candidate in PAIR.candidates)
    expected = [
        {"role": "system", "content": source["system_prompt"]},
        {
            "role": "user",
            "content": source["prompt_template"].format(
                question=PAIR.question, answer_a=a, answer_b=b
            ),
        },
    ]
    assert get_template("mt-bench-pair").render(PAIR) == expected


def test_mt_bench_pair_with_a_reference_renders_what_fastchat_renders() -> None:
    source = _source("fastchat-judge-prompts.json")["pair-math-v1"]
    item = Item(
        **{
            **PAIR.model_dump(exclude={"candidates"}),
            "candidates": PAIR.candidates,
            "context": "Paris.",
        }
    )
    a, b = (candidate.text for candidate in item.candidates)
    user = source["prompt_template"].format(
        question=item.question, ref_answer_1="Paris.", answer_a=a, answer_b=b
    )
    assert get_template("mt-bench-pair-ref").render(item) == [
        {"role": "system", "content": source["system_prompt"]},
        {"role": "user", "content": user},
    ]


def test_arena_hard_renders_what_gen_judgment_renders() -> None:
    source = _source("arena-hard-judge-config.json")["arena-hard-v0.1"]
    a, b = (candidate.text for candidate in PAIR.candidates)
    user = source["prompt_template"].format(question_1=PAIR.question, answer_1=a, answer_2=b)
    assert get_template("arena-hard").render(PAIR) == [
        {"role": "system", "content": source["system_prompt"]},
        {"role": "user", "content": user},
    ]


def test_prometheus_relative_renders_what_prometheus_eval_renders() -> None:
    source = _source("prometheus-eval-prompts.json")
    rubric = "[Does the model provide relevant and useful responses to the user's needs?]"
    item = Item(task="pairwise", question=PAIR.question, candidates=PAIR.candidates, context=rubric)
    a, b = (candidate.text for candidate in item.candidates)
    user = source["RELATIVE_PROMPT_WO_REF"].format(
        instruction=item.question, response_A=a, response_B=b, rubric=rubric
    )
    assert get_template("prometheus-relative").render(item) == [
        {"role": "system", "content": source["REL_SYSTEM_PROMPT"]},
        {"role": "user", "content": user},
    ]


def test_every_pack_names_its_source_and_licence() -> None:
    assert {"mt-bench-pair", "mt-bench-pair-ref", "arena-hard", "prometheus-relative"} <= set(
        packs()
    )
    for template in packs().values():
        assert template.source and template.licence == "Apache-2.0"
        assert template.text and not template.builtin


# -- the reverse leg ------------------------------------------------------------------------


def test_the_reverse_leg_flips_the_templates_words_and_never_the_items() -> None:
    template = get_template("mt-bench-pair")
    direct = template.render(PAIR, Polarity.DIRECT)
    reverse = template.render(PAIR, Polarity.REVERSE)
    assert '"[[A]]" if assistant A is better' in direct[0]["content"]
    assert '"[[A]]" if assistant A is worse' in reverse[0]["content"]
    assert "answers the user's question worse" in reverse[0]["content"]
    # the item's own text ("a better city") is shown as it is on both legs
    assert direct[1] == reverse[1]
    assert "Lyon, a better city." in reverse[1]["content"]


def test_flips_keep_case_and_swap_at_once() -> None:
    template = Template(
        "swap",
        1,
        "better",
        "worse",
        task="pairwise",
        system="Better is good; worse is bad. Say which is better: [[A]] or [[B]].",
        instruction="{question}\n1: {candidate_1}\n2: {candidate_2}",
        flips={"good": "bad", "bad": "good"},
        contract=AnswerContract(labels=("A", "B"), format=Tag()),
    )
    system, _ = template.texts(Polarity.REVERSE)
    assert system == "Worse is bad; better is good. Say which is worse: [[A]] or [[B]]."


def test_a_reverse_leg_given_is_used_as_written() -> None:
    template = Template(
        "given",
        1,
        "better",
        "worse",
        task="pairwise",
        instruction="Which is better?\n{question}\nA: {candidate_1}\nB: {candidate_2}\n[[A]]/[[B]]",
        reverse_instruction="Which is the weaker one?\n{question}\nA: {candidate_1}\n"
        "B: {candidate_2}\n[[A]]/[[B]]",
        contract=AnswerContract(labels=("A", "B"), format=Tag()),
    )
    assert template.render(PAIR, "reverse")[0]["content"].startswith("Which is the weaker one?")


# -- checked when the template is made ---------------------------------------------------------

_BASE: dict[str, Any] = {
    "id": "mine",
    "version": 1,
    "task": "pairwise",
    "positive": "better",
    "negative": "worse",
    "instruction": "Which answer to {question} is better?\nA: {candidate_1}\nB: {candidate_2}\n"
    'Reply "[[A]]" or "[[B]]", or "[[C]]" for a tie.',
    "contract": {"labels": ["A", "B"], "tie": "C", "format": {"kind": "tag"}},
}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param(
            {"instruction": "Which of {question} is {verdict}?"},
            "unknown placeholder {verdict}",
            id="unknown-placeholder",
        ),
        pytest.param(
            {"instruction": "Which is better? {question} A: {candidate_1} [[A]] [[C]]"},
            "must show {candidate_2}",
            id="missing-candidate",
        ),
        pytest.param(
            {"contract": {"labels": ["X", "Y"], "tie": "C", "format": {"kind": "tag"}}},
            "never shows the label 'X'",
            id="label-never-shown",
        ),
        pytest.param(
            {"contract": {"labels": ["A", "B"], "format": {"kind": "line", "prefix": "Verdict:"}}},
            "never asks for 'Verdict:'",
            id="format-never-asked",
        ),
        pytest.param(
            {"contract": {"labels": ["A", "B"], "tie": "Tie", "format": {"kind": "tag"}}},
            "contract.tie: the prompt never asks for 'Tie'",
            id="tie-never-asked",
        ),
        pytest.param({"flips": {"better": "better"}}, "identical to the direct leg", id="no-flip"),
        pytest.param(
            {"contract": {"labels": ["A", "B"], "format": {"kind": "scores"}}},
            "reverse_instruction: a score per candidate keeps its scale",
            id="scores-need-a-reverse",
        ),
        pytest.param(
            {"instruction": "{question.__class__} {candidate_1} {candidate_2} [[A]] [[B]] [[C]]"},
            "is not a placeholder",
            id="attribute-access",
        ),
        pytest.param(
            {"placeholders": {"answer": "answer_text"}},
            "which is no field",
            id="placeholder-to-no-field",
        ),
        pytest.param({"contract": None}, "contract: a prompt of one's own says", id="no-contract"),
        pytest.param({"colour": "blue"}, "unknown field 'colour'", id="unknown-field"),
    ],
)
def test_a_bad_template_is_an_error_naming_the_field(changes: dict[str, Any], message: str) -> None:
    data = {**_BASE, **changes}
    if data.get("contract") is None:
        data.pop("contract")
    with pytest.raises(UsageError, match=message.replace("{", r"\{").replace("(", r"\(")):
        Template.from_mapping(data)


# -- issue 37, items 10 and 11: the reverse leg is a reverse, and loading edges -------------


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        pytest.param(
            {"reverse_instruction": _BASE["instruction"].replace("\n", "\n\n")},
            "reverse_instruction",
            "the reverse leg is identical to the direct leg",
            id="same-legs-but-spacing",
        ),
        pytest.param(
            # "better" with a Cyrillic e: the flips miss the prompt's "better", and the
            # reverse leg still asks which is better
            {"positive": "b\u0435tter", "instruction": _BASE["instruction"] + " Not worse."},
            "positive",
            "mixes scripts in one word (Cyrillic, Latin)",
            id="mixed-script-word",
        ),
        pytest.param(
            {"positive": "\uff42\uff45\uff54\uff54\uff45\uff52"},
            "positive",
            "holds compatibility characters",
            id="fullwidth-word",
        ),
        pytest.param(
            # a flip of "good" and a prompt that writes "good" with Cyrillic o's
            {
                "flips": {"good": "bad"},
                "instruction": _BASE["instruction"] + " Pick the g\u043e\u043ed one.",
            },
            "instruction",
            "looks like 'good' (flips)",
            id="look-alike-in-the-text",
        ),
        pytest.param(
            {"negative": "\u0441\u043e\u0440\u0443", "noun": "copy"},  # Cyrillic "сору"
            "negative",
            "looks like 'copy'",
            id="whole-script-look-alike",
        ),
        pytest.param({"flips": {"": "worse"}}, "flips", "source ''", id="empty-flip"),
        pytest.param(
            {"flips": {"": "x"}, "instruction": _BASE["instruction"] + " {{literal}}"},
            "flips",
            "source ''",
            id="empty-flip-with-braces",
        ),
        pytest.param(
            {"flips": {"answer": "{question}"}},
            "flips",
            "target '{question}'",
            id="flip-makes-a-placeholder",
        ),
        pytest.param({"flips": {"Good": "bad", "good": "fine"}}, "flips", "twice", id="flip-twice"),
    ],
)
def test_a_reverse_that_is_no_reverse_is_refused_naming_the_field(
    changes: dict[str, Any], field: str, reason: str
) -> None:
    with pytest.raises(UsageError) as raised:
        Template.from_mapping({**_BASE, **changes})
    message = str(raised.value)
    assert message.startswith(f"template: {field}: "), message
    assert reason in message, message


def test_words_in_other_scripts_are_words() -> None:
    for positive, negative in (("лучше", "хуже"), ("良い", "悪い"), ("καλύτερη", "χειρότερη")):
        instruction = _BASE["instruction"].replace("better", positive)
        template = Template.from_mapping(
            {**_BASE, "positive": positive, "negative": negative, "instruction": instruction}
        )
        assert negative in template.texts(Polarity.REVERSE)[1]


def test_a_turkish_flip_keeps_its_case_and_raises_nothing() -> None:
    # issue 37, item 11: "İYİ" matches "iyi" case-insensitively, but folds to "i̇yi̇":
    # the flip was looked up by its fold and raised KeyError
    template = Template.from_mapping(
        {
            **_BASE,
            "positive": "iyi",
            "negative": "kötü",
            "instruction": _BASE["instruction"].replace("is better", "is İYİ"),
        }
    )
    reverse = template.texts(Polarity.REVERSE)[1]
    assert "is Kötü?" in reverse and "İYİ" not in reverse


def test_a_template_file_is_loaded_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "mine.toml"
    good.write_text(
        'id = "mine"\nversion = 2\ntask = "pairwise"\npositive = "better"\nnegative = "worse"\n'
        "instruction = '''Which answer to {question} is better?\nA: {candidate_1}\n"
        "B: {candidate_2}\nReply [[A]] or [[B]], or [[C]] for a tie.'''\n"
        '[contract]\nlabels = ["A", "B"]\ntie = "C"\nformat = { kind = "tag" }\n',
        encoding="utf-8",
    )
    loaded = get_template(str(good))
    assert (loaded.id, loaded.version, loaded.text) == ("mine", 2, True)
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace("{candidate_1}", "{first}"), encoding="utf-8")
    with pytest.raises(UsageError, match=r"unknown placeholder \{first\}"):
        Guard(lambda prompt: "[[A]]", template=str(bad))


# -- guarding a prompt of one's own ------------------------------------------------------


def test_the_mt_bench_prompt_guarded_reads_a_tie_and_flags_a_contradiction() -> None:
    def tie(prompt: str) -> str:
        return "Both give the same answer.\n\n[[C]]"

    def first(prompt: str) -> str:
        return "Assistant A is clearer.\n\n[[A]]"

    verdict = Guard(tie, template="mt-bench-pair", cache=None).check(PAIR)
    assert verdict.ok and verdict.correct == ("A", "B")  # a tie: both are the best
    verdict = Guard(first, template="mt-bench-pair", cache=None).check(PAIR)
    assert "inconsistent" in verdict.flags  # A named the better and the worse one


def test_the_order_check_swaps_the_candidates_in_the_users_layout() -> None:
    seen: list[str] = []

    def judge(prompt: str) -> str:
        seen.append(prompt)
        return "[[B]]" if "is better" in prompt else "[[A]]"

    Guard(judge, template="mt-bench-pair", checks="reverse,order", cache=None).check(PAIR)
    a, b = (candidate.text for candidate in PAIR.candidates)
    swapped = [p for p in seen if p.index(b) < p.index(a)]
    assert len(seen) == 4 and len(swapped) == 2
    for prompt in swapped:  # the second response now stands where the first stood
        assert prompt.index("[The Start of Assistant A's Answer]") < prompt.index(b)


def test_editing_a_template_never_reuses_an_old_answer() -> None:
    asked: list[str] = []

    def judge(prompt: str) -> str:
        asked.append(prompt)
        return "[[B]]" if "is better" in prompt else "[[A]]"

    from prin_guard import MemoryCache

    cache = MemoryCache()
    one = Template.from_mapping(_BASE)
    two = Template.from_mapping({**_BASE, "instruction": _BASE["instruction"] + " Be brief."})
    Guard(judge, template=one, cache=cache).check(PAIR)
    Guard(judge, template=one, cache=cache).check(PAIR)
    assert len(asked) == 4  # both orders' legs; the second guard's came from the cache
    Guard(judge, template=two, cache=cache).check(PAIR)
    assert len(asked) == 8  # an edited prompt is asked anew


@pytest.mark.parametrize(
    ("reply", "winner"),
    [
        pytest.param("2\nResponse 2 answers the question and gives the date.", "B", id="two"),
        pytest.param("1\nIt names a city.", "A", id="one"),
        pytest.param("Tie\nBoth are wrong.", None, id="tie"),
    ],
)
def test_a_kind_of_prompt_not_shipped_is_described_and_read_right(reply: str, winner: str) -> None:
    # PandaLM's format: the first line is "1", "2" or "Tie" (no change to the library)
    pandalm = Template(
        "pandalm-like",
        1,
        "better",
        "worse",
        task="pairwise",
        noun="responses",
        instruction="Which response is better?\n{question}\n### Response 1:\n{candidate_1}\n"
        "### Response 2:\n{candidate_2}\nFirst line: 1, 2 or Tie; then your reason.",
        contract=AnswerContract(labels=("1", "2"), tie="Tie", format=FirstLine()),
    )
    reading = read_reply(reply, PAIR, template=pandalm)
    assert reading.labels == ((winner,) if winner else ("A", "B"))
    assert reading.method is not None and reading.method.value == "declared"


def test_two_scores_on_the_first_line_are_described_with_a_reverse_leg_of_ones_own() -> None:
    vicuna = Template(
        "two-scores",
        1,
        "better",
        "worse",
        task="pairwise",
        noun="assistants",
        instruction="Rate Assistant 1 and Assistant 2 from 1 to 10.\n{question}\n"
        "Assistant 1: {candidate_1}\nAssistant 2: {candidate_2}\n"
        "First line: the two scores, separated by a space.",
        reverse_instruction="How poorly did each assistant do? {question}\n"
        "Assistant 1: {candidate_1}\nAssistant 2: {candidate_2}\n"
        "First line: the two scores (1 the best, 10 the worst), separated by a space.",
        contract=AnswerContract(labels=("Assistant 1", "Assistant 2"), format=ScoresFormat()),
    )
    assert read_reply("8 9\nAssistant 2 gives the date.", PAIR, template=vicuna).labels == ("B",)


# -- see before you spend (issue 29, item 3) ---------------------------------------------


def test_the_guard_shows_every_leg_before_it_asks_anything() -> None:
    calls: list[str] = []
    guard = Guard(
        lambda prompt: calls.append(prompt) or "[[A]]",
        template="mt-bench-pair",
        checks="reverse,order",
        mitigations=["neg_exp"],
    )
    legs = guard.prompts(PAIR)
    assert [leg.name for leg in legs] == [
        "direct",
        "reverse",
        "direct, second order",
        "reverse, second order",
    ]
    assert calls == []
    assert "if assistant A is worse" in legs[1].messages[0]["content"]
    assert "Please recall that 'the worse one'" in legs[1].messages[-1]["content"]
    assert legs[2].order == ("B", "A") and "[[...]]" in legs[0].reads


def test_prin_guard_prompts_prints_the_legs(tmp_path: Path) -> None:
    import subprocess
    import sys

    item = tmp_path / "item.json"
    item.write_text(json.dumps(PAIR.model_dump(exclude_none=True)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "prin_guard.cli", "prompts", "--template", "mt-bench-pair",
         "--item", str(item), "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    legs = json.loads(done.stdout)
    # a pair's default checks: both questions, in both orders
    names = ["direct", "reverse", "direct, second order", "reverse, second order"]
    assert [leg["leg"] for leg in legs] == names
    assert legs[1]["messages"][0]["role"] == "system"
    assert "assistant B is worse" in legs[1]["messages"][0]["content"]


# -- a rating's legs, seen before they are asked (issue 39, item 7) -------------------------

RATED = {
    "task": "rating",
    "question": "Name the capital of France.",
    "response": "Paris.",
    "scale": {"min": 1, "max": 5, "rubric": {str(n): f"level {n}" for n in range(1, 6)}},
}


class Recorder:
    """Rates 4 (2 on the mirrored leg; every aspect at once too), and keeps each call's
    messages."""

    def __init__(self) -> None:
        self.asked: list[list[dict[str, str]]] = []

    def identity(self) -> dict[str, Any]:
        return {"kind": "test", "name": "recorder"}

    async def complete(self, messages: Any, *, labels: Any = ()) -> Any:
        from prin_guard.judges import JudgeResponse

        self.asked.append([dict(message) for message in messages])
        score = "2" if "how poor" in messages[-1]["content"] else "4"
        text = "\n".join(f"{name}: [[{score}]]" for name in ("coherence", "fluency"))
        return JudgeResponse(text=f"{text}\nRating: [[{score}]]")


@pytest.mark.parametrize(
    ("item", "options", "names"),
    [
        pytest.param(RATED, {}, ["direct", "reverse"], id="own-wording"),
        pytest.param(
            RATED,
            {"checks": "reverse,order"},
            ["direct", "reverse", "direct, rubric reversed"],
            id="order-check",
        ),
        pytest.param(
            {**RATED, "scale": {"min": 1, "max": 10}},
            {"template": "mt-bench-single"},
            ["direct", "reverse"],
            id="pack",
        ),
        pytest.param(
            {**RATED, "aspects": ["coherence", "fluency"]},
            {},
            ["coherence: direct", "coherence: reverse", "fluency: direct", "fluency: reverse"],
            id="aspects-apart",
        ),
        pytest.param(
            {**RATED, "aspects": ["coherence", "fluency"]},
            {"rating_aspects": "together"},
            ["direct", "reverse"],
            id="aspects-together",
        ),
    ],
)
def test_the_guard_shows_a_ratings_legs_as_the_judge_is_asked_them(
    item: dict[str, Any], options: dict[str, Any], names: list[str]
) -> None:
    """Issue 39, item 7: ``Guard.prompts`` refused rating items and a guard under a rating
    pack. Each leg shown is a conversation the judge is then sent, in the same order."""
    judge = Recorder()
    guard = Guard(judge, cache=None, **options)
    legs = guard.prompts(item)
    assert [leg.name for leg in legs] == names
    assert judge.asked == []  # shown, not asked
    assert guard.check(item).error is None
    assert sorted(map(str, judge.asked)) == sorted(str(leg.messages) for leg in legs)
    assert all("score" in leg.reads for leg in legs)
    assert [leg.polarity.value for leg in legs] == [
        name.split(": ")[-1].split(",")[0] for name in names
    ]


def test_prin_guard_prompts_prints_a_ratings_legs(tmp_path: Path) -> None:
    import subprocess
    import sys

    item = tmp_path / "item.json"
    item.write_text(json.dumps({**RATED, "scale": {"min": 1, "max": 10}}), encoding="utf-8")
    command = [sys.executable, "-m", "prin_guard.cli", "prompts", "--item", str(item)]
    done = subprocess.run(
        [*command, "--template", "mt-bench-single", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    legs = json.loads(done.stdout)
    assert [leg["leg"] for leg in legs] == ["direct", "reverse"]
    assert "[[rating]]" in legs[0]["messages"][-1]["content"]
    assert "how poor the response" in legs[1]["messages"][-1]["content"]
    # a label template cannot ask a rating: the error says what can
    refused = subprocess.run([*command, "--template", "v1"], capture_output=True, text=True)
    assert refused.returncode == 2
    assert "rate under a rating prompt (such as 'mt-bench-single')" in refused.stderr


# -- a user's own client (issue 29, item 7) ------------------------------------------------


def test_a_function_judge_takes_the_messages_and_returns_its_usage() -> None:
    from prin_guard import FunctionJudge

    seen: list[list[dict[str, str]]] = []

    def client(messages: list[dict[str, str]]) -> tuple[str, dict[str, Any]]:
        seen.append(messages)
        worse = "is worse" in messages[0]["content"]
        usage = {"prompt_tokens": 300, "completion_tokens": 20, "cost_usd": 0.001}
        return ("[[A]]" if worse else "[[B]]"), usage

    judge = FunctionJudge(client, messages=True)
    verdict = Guard(judge, template="mt-bench-pair", checks="reverse", cache=None).check(PAIR)
    assert verdict.winner == "B" and verdict.ok
    assert [m["role"] for m in seen[0]] == ["system", "user"]
    assert verdict.usage is not None and verdict.usage.prompt_tokens == 600


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        pytest.param(3, "returned int", id="a-number"),
        pytest.param({"reply": "x"}, "holds 'text'", id="a-mapping-without-text"),
        pytest.param(("x", {"prompt_tokens": "many"}), "usage.prompt_tokens", id="bad-usage"),
    ],
)
def test_a_function_judge_returning_something_else_says_what_it_expects(
    returned: Any, message: str
) -> None:
    import asyncio

    from prin_guard import FunctionJudge

    judge = FunctionJudge(lambda prompt: returned)
    with pytest.raises(TypeError, match=message):
        asyncio.run(judge.complete([{"role": "user", "content": "q"}]))


def test_a_python_judge_is_imported_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from prin_guard.judges import judge_from_spec

    (tmp_path / "my_judge_here.py").write_text(
        "def judge(prompt):\n    return 'Answer: A'\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    judge = judge_from_spec("python:my_judge_here:judge")
    assert judge.identity()["kind"] == "function"
    with pytest.raises(UsageError, match="no module 'nowhere_module' in the current directory"):
        judge_from_spec("python:nowhere_module:judge")


# -- the reference of every field in docs/templates.md (issue 37) ---------------------------

_REFERENCE = (Path(__file__).parents[1] / "docs" / "templates.md").read_text(encoding="utf-8")


def _reference_tables() -> list[list[list[str]]]:
    """The tables of the page's "Reference: every field" section: rows of cells."""
    section = _REFERENCE.split("## Reference: every field", 1)[1].split("\n## ", 1)[0]
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*section.splitlines(), ""]:
        if line.startswith("|"):
            if not set(line.strip()) <= set("|-"):  # not the header's rule
                rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
        elif rows:
            tables.append(rows[1:])  # the header row left out
            rows = []
    return tables


def _code(cell: str) -> str:
    return cell.split("`")[1]


def test_the_reference_names_every_template_field_in_toml_and_in_python() -> None:
    import dataclasses
    import re
    import tomllib

    fields, contract, _ = _reference_tables()
    wanted = [field.name for field in dataclasses.fields(Template)]
    toml_names = [re.match(r"\[?(\w+)", _code(row[0])).group(1) for row in fields]  # type: ignore[union-attr]
    python_names = [_code(row[1]).split("=")[0] for row in fields]
    assert toml_names == wanted and python_names == wanted
    for row in fields:  # each TOML spelling is TOML
        if not _code(row[0]).startswith("["):
            tomllib.loads(_code(row[0]))
    assert [_code(row[0]).split(" =")[0] for row in contract] == list(AnswerContract.model_fields)


def test_the_reference_spells_every_verdict_format_in_toml_as_in_python() -> None:
    import tomllib

    import prin_guard.models as models
    from prin_guard._prompting._contract import FORMAT_KINDS

    *_, formats = _reference_tables()
    assert [_code(row[0]) for row in formats] == list(FORMAT_KINDS)
    for row in formats:
        spelled = tomllib.loads(_code(row[1]))["format"]
        read = AnswerContract.model_validate({"format": spelled}).format
        public = {name: getattr(models, name) for name in models.__all__}
        built = eval(_code(row[2]), public)  # the Python column, as written
        assert read == built and read.kind == _code(row[0])
        # every field of the kind is spelled (its defaults shown)
        assert set(spelled) == set(type(read).model_fields)
