"""The rules for a judge prompt's own text, one for every template (a label task's and a
rating's, :class:`~prin_guard._prompting._prompts.Template`): they all go through these functions.

- **Placeholders** (:func:`fields_of`, :func:`fill`): ``{name}`` and nothing else. No
  attribute or index (``{level.__class__}``, ``{0}``), no conversion (``{text!r}``), no
  format spec (``{level:>20000000}``): a template's text is filled, never evaluated. A
  literal brace is written twice (``{{`` shows ``{``), and ``{{response}}`` is the text
  ``{response}``, never a placeholder.
- **Two legs** (:func:`check_legs_differ`): the reverse leg's messages must differ from the
  direct leg's (after spacing and case), or the "reverse" asks the direct question again
  and a judge that answers it the same way looks consistent.
- **Words** (:func:`check_words`): a template's words (its positive and negative words, its
  noun, its flips) are written in one script each, in NFKC form, and none looks like
  another word of the template in other letters ("better" with a Cyrillic "е"): a flip
  would miss the word the prompt shows, and the reverse leg would still ask "which is
  better?". Chosen over a confusables library: the words are a handful of short phrases
  chosen by the template's author, and the check needs each letter's script (the first
  word of its Unicode name: LATIN, CYRILLIC, GREEK, CJK, ...) and, for the look-alikes
  across scripts, the letters of Cyrillic and Greek that Unicode's confusables table maps
  to a Latin letter (:data:`LOOK_ALIKES`), the only scripts with whole-word look-alikes of
  Latin words.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from prin_guard.errors import UsageError

__all__ = ["LOOK_ALIKES", "check_legs_differ", "check_words", "fields_of", "fill", "scripts_of"]

_FORMATTER = string.Formatter()


def fields_of(text: str, where: str, *, owner: str = "template") -> list[str]:
    """The placeholders of ``text`` (field ``where`` of ``owner``), each a plain name, in
    order; a :class:`~prin_guard.UsageError` naming the field for anything else (an
    attribute, an index, a conversion, a format spec, an unmatched brace)."""
    try:
        parsed = list(_FORMATTER.parse(text))
    except ValueError as exc:
        raise UsageError(
            f"{owner}: {where}: {exc} (a literal brace is written twice: {{{{ or }}}})"
        ) from None
    names = []
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise UsageError(
                f"{owner}: {where}: {{{name}{'!' + conversion if conversion else ''}"
                f"{':' + spec if spec else ''}}} is not a placeholder: use a name, such as "
                "{question}, and write a literal brace twice ({{ or }})"
            )
        names.append(name)
    return names


def fill(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each placeholder replaced by its value and each doubled brace made
    one, in one pass (a value's own braces are never read); ``text`` passed
    :func:`fields_of`. A name ``values`` lacks is a ``KeyError`` (the caller's
    ``__missing__`` may say more)."""
    out: list[str] = []
    for literal, name, _, _ in _FORMATTER.parse(text):
        out.append(literal)
        if name is not None:
            out.append(values[name])
    return "".join(out)


def _normal(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def check_legs_differ(
    direct: tuple[str | None, str],
    reverse: tuple[str | None, str],
    field: str,
    *,
    owner: str = "template",
    hint: str = "",
) -> None:
    """A UsageError naming ``field`` when the reverse leg's (system, instruction) say
    what the direct leg's say (spacing and case aside): such a "reverse" asks the direct
    question again."""
    if tuple(map(_normal, direct)) == tuple(map(_normal, reverse)):
        raise UsageError(
            f"{owner}: {field}: the reverse leg is identical to the direct leg: it must ask "
            f"the reverse question{hint}"
        )


# -- words: scripts and look-alikes -------------------------------------------------------

_SCRIPT_WORDS = {"CJK": "Han", "IDEOGRAPHIC": "Han", "HIRAGANA": "Kana", "KATAKANA": "Kana"}
# Han is written with kana (Japanese), Hangul (Korean) or Bopomofo (Chinese annotation)
_WITH_HAN = ({"Kana"}, {"HANGUL"}, {"BOPOMOFO"})


def _script(char: str) -> str | None:
    """A letter's script, the first word of its Unicode name (``None``: not a letter, or a
    modifier letter, which any script uses)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0].split("-", 1)[0]
    if not first or first == "MODIFIER":
        return None
    return _SCRIPT_WORDS.get(first, first)


def scripts_of(word: str) -> set[str]:
    """The scripts of ``word``'s letters (Han with kana, Hangul or Bopomofo counts as one:
    the way Japanese, Korean and Chinese are written)."""
    found = {script for script in map(_script, word) if script is not None}
    if "Han" in found and any(found - {"Han"} <= allowed for allowed in _WITH_HAN):
        return {"Han"}
    return found


LOOK_ALIKES: Mapping[str, str] = {
    # Cyrillic, lower and upper case
    **dict(zip("аеорсухѕіјһԁԛԝӏ", "aeopcyxsijhdqwl", strict=True)),
    **dict(zip("АВЕКМНОРСТХУЅІЈԚԜӀ", "ABEKMHOPCTXYSIJQWl", strict=True)),
    # Greek, lower and upper case
    **dict(zip("αορνιυγ", "aopviuy", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
}
"""The Cyrillic and Greek letters Unicode's confusables table (UTS #39) maps to a Latin
letter, each with that letter."""


def _skeleton(word: str) -> str:
    return "".join(LOOK_ALIKES.get(char, char) for char in word).casefold()


_TOKEN = re.compile(r"[^\W\d_]+")


def _shown(word: str) -> str:
    odd = [c for c in word if c.isalpha() and _script(c) not in (None, "LATIN")]
    note = ", ".join(f"{c!r} U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in odd[:3])
    return f"{word!r}" + (f" ({note})" if note else "")


def check_words(
    words: Sequence[tuple[str, str]], texts: Iterable[tuple[str, str]], *, owner: str = "template"
) -> None:
    """A UsageError naming the field when one of ``words`` (``(field, word)``: the
    positive and negative words, the noun, the flips) is not in NFKC form, mixes scripts
    in one word, or looks like another word of the template (another of ``words``, or one
    of the words of ``texts``, ``(field, text)``) in other letters."""
    for field, word in words:
        if not unicodedata.is_normalized("NFKC", word):
            raise UsageError(
                f"{owner}: {field}: {_shown(word)} holds compatibility characters (fullwidth, "
                f"styled or ligature letters); write it as {unicodedata.normalize('NFKC', word)!r}"
            )
        for token in _TOKEN.findall(word):
            scripts = scripts_of(token)
            if len(scripts) > 1:
                raise UsageError(
                    f"{owner}: {field}: {_shown(word)} mixes scripts in one word "
                    f"({', '.join(sorted(s.title() for s in scripts))}): a look-alike of a word "
                    "in one script"
                )
    # a word of the template against every word (its others, and its texts'); two words
    # of the texts alike are the author's prose, not a word a flip must find
    mine: dict[str, list[tuple[str, str]]] = {}
    for field, word in words:
        for token in _TOKEN.findall(word):
            mine.setdefault(_skeleton(token), []).append((field, token))
    everything = [(field, token) for found in mine.values() for field, token in found]
    everything += [(field, token) for field, text in texts for token in _TOKEN.findall(text)]
    for field, token in everything:
        for other_field, other in mine.get(_skeleton(token), ()):
            if other.casefold() != token.casefold():
                # named: the one written in other letters than Latin (the other one)
                odd, plain = ((field, token), (other_field, other))
                if _latin(token) and not _latin(other):
                    odd, plain = plain, odd
                raise UsageError(
                    f"{owner}: {odd[0]}: {_shown(odd[1])} looks like {plain[1]!r} "
                    f"({plain[0]}) but is written in other letters: one word, one spelling"
                )


def _latin(token: str) -> bool:
    return scripts_of(token) <= {"LATIN"}
