"""11. The reader: long replies, and real replies of other projects' judges.

Reading time of one reply (``prin_guard.read_reply``) by its length: 10 kB, 100 kB and
1 MB of prose ending in the answer, and a 1 MB reply that repeats a 0.79 MB item (the
copy check on; its first read builds the item's index, the legs after it share it).
Each is the best of 5 reads after a warm-up, beside the time to read "Answer: B" alone
in the same rounds. Reading is linear up to 64 kB (``WINDOW``) and bounded beyond: a
longer reply is read in its first and last 32 kB (marked weak).

Then the real-reply corpus (tests/data/replies): per source, how many replies the reader
reads as the project recorded them, with each family's template and with none
(``python -m bench.reader_corpus``).
"""

from __future__ import annotations

import random
import time

from bench._common import Context, Figure, Section, md_table
from bench.reader_corpus import figures, read, records

NAME = "reader"
TITLE = "11. The reader"
TARGET = (
    "a 1 MB reply read in < 0.2 s; real replies read as recorded on ≥ 97%, 0 confident misreads"
)
LIMIT = 0.2
_WORDS = "the response explains why this option is better than the other one and gives detail"


def _prose(size: int, seed: int) -> str:
    rng = random.Random(seed)
    words = _WORDS.split()
    out: list[str] = []
    length = 0
    while length < size:
        sentence = " ".join(rng.choice(words) for _ in range(12)).capitalize() + "."
        out.append(sentence + ("\n" if rng.random() < 0.1 else " "))
        length += len(sentence) + 1
    return "".join(out)


def _best(read_once: object, tries: int) -> float:
    assert callable(read_once)
    read_once()  # warm-up: patterns compiled, the item's index built
    best = float("inf")
    for _ in range(tries):
        started = time.perf_counter()
        read_once()
        best = min(best, time.perf_counter() - started)
    return best


def _agree(row: dict[str, int | str]) -> str:
    agree = int(row.get("agree", 0))
    counted = int(row["replies"]) - int(row.get("known", 0))
    return f"{agree} ({agree / max(counted, 1):.1%})"


def run(ctx: Context) -> Section:
    from prin_guard import Item, read_reply

    section = Section(NAME, TITLE, TARGET)
    tries = ctx.pick(5, 1)
    pair = Item(task="pairwise", question="Which city?", candidates=["Paris.", "London."])
    short = _best(lambda: read_reply("Answer: B", pair), tries)
    rows = [["`Answer: B`", f"{short * 1000:.2f} ms", "1.0×"]]
    sizes = ctx.pick((10_000, 100_000, 1_000_000), (10_000, 1_000_000))
    for size in sizes:
        reply = _prose(size, size) + "\nAnswer: B"
        took = _best(lambda reply=reply: read_reply(reply, pair), tries)
        rows.append(
            [f"{size // 1000} kB of prose", f"{took * 1000:.1f} ms", f"{took / short:.0f}×"]
        )
        if size == 1_000_000:
            section.add(
                Figure(
                    "1 MB reply, read",
                    took,
                    unit="s",
                    baseline="target",
                    baseline_value=LIMIT,
                    ratio=took / LIMIT,
                    target=f"< {LIMIT} s",
                    met=took < LIMIT,
                )
            )
    echoed = _prose(790_000, 1)
    item = Item(task="pairwise", question="Which city?", candidates=[echoed, "London."])
    reply = "The first response reads: " + echoed + "\nAnswer: B"
    took = _best(lambda: read_reply(reply, item), tries)
    rows.append(["1 MB repeating a 0.79 MB item", f"{took * 1000:.1f} ms", f"{took / short:.0f}×"])
    section.add(
        Figure(
            "1 MB reply repeating a 0.79 MB item, read (index built)",
            took,
            unit="s",
            baseline="target",
            baseline_value=LIMIT,
            ratio=took / LIMIT,
            target=f"< {LIMIT} s",
            met=took < LIMIT,
        )
    )
    section.tables.append(
        ("Reading time by reply length (best of " + str(tries) + ")", md_table(
            ["reply", "read in", "× `Answer: B`"], rows
        ))
    )  # fmt: skip
    corpus = list(records())
    for declared, caption in (
        (True, "Real replies, each family's template (read_reply(reply, item, template=...))"),
        (False, "Real replies, no template (read_reply(reply, item))"),
    ):
        table = figures([read(record, declared=declared) for record in corpus])
        lines = [
            [
                row["source"],
                str(row["replies"]),
                _agree(row),
                str(row.get("abstain", 0)),
                str(row.get("misread", 0)),
                str(row.get("confident", 0)),
                str(row.get("known", 0)),
            ]
            for row in table
        ]
        section.tables.append(
            (
                caption,
                md_table(
                    ["source", "replies", "agree", "abstain", "misread", "confident misread",
                     "stored verdict wrong"],
                    lines,
                ),
            )
        )  # fmt: skip
        overall = table[-1]
        counted = overall["replies"] - overall.get("known", 0)
        if declared:
            share = overall.get("agree", 0) / max(counted, 1)
            section.add(
                Figure(
                    "real replies read as recorded (each family's template)",
                    share,
                    unit="",
                    target="≥ 97%, 0 confident misreads",
                    met=share >= 0.97 and overall.get("confident", 0) == 0,
                )
            )
    section.notes.append(
        "Replies whose stored verdict is known to be wrong (bench/reader_corpus.py KNOWN, "
        "with the reason) are counted apart. `python -m bench.reader_corpus --misses` prints "
        "every reply not read as recorded."
    )
    return section
