#!/usr/bin/env python3
"""Build audit/data/wordnet.tsv, the audit engine's word-knowledge table, from WordNet 3.0.

Reads the WordNet 3.0 database files as Debian's `wordnet-base` package installs them
(`apt-get install -y wordnet-base`, files under /usr/share/wordnet) and writes one line per
headword, sorted, fields separated by tabs, empty fields omitted:

    word  pos:<nvar>  syn:a,b  ant:c  hyp:d,e  der:f  base:g

    pos  parts of speech the word has in WordNet (n noun, v verb, a adjective, r adverb);
         only written for headwords of the vocabulary (see below), so the reader can tell a
         known lemma from an irregular form that only carries `base`.
    syn  single-word lemmas sharing a synset with the word, where that synset is among the
         first 2 senses (WordNet orders senses by tagged frequency) of BOTH words in that part
         of speech.  Symmetric.
    ant  antonyms: the lexical `!` pointers of all senses, both directions; for adjectives
         also, one direction only, the `!` antonyms of the head synset of the word's first 2
         senses: its own synset when that is a head ("big" in {large, big} -> "small"), else
         the head its `&` (similar-to) pointer reaches ("huge" -> "small").  Not symmetric:
         readers check both ways.
    hyp  single-word lemmas of the hypernym (`@`) synsets of the word's first 2 senses per
         part of speech, up to 2 levels up (a multi-word synset on level 1 is still climbed).
    der  derivationally related forms: the lexical `+` pointers of all senses, both
         directions, single-word targets only.
    base irregular inflected form -> lemma(s), from verb.exc, noun.exc, adj.exc, adv.exc in
         that priority order (regular inflection is left to the Rust code).

Words are lower-cased; only "single-word" lemmas are kept: letters and inner hyphens,
`[a-z]+(-[a-z]+)*`, at least 2 letters, and not one of a short list of function words whose
WordNet entries are only homographs ("in" = inch, "can" = tin, "will" = testament).  Synsets
of named entities (those with an instance-hypernym `@i` pointer, e.g. Amazon the river, Tesla
the inventor) are ignored everywhere: the engine reads company news, where such senses are the
wrong ones.

Vocabulary cut (keeps the file under 2.5 MB): the core vocabulary is the headwords to
which WordNet's index gives a tagged sense count (tagsense_cnt, from the SemCor-tagged corpora)
> 0 in some part of speech, plus their first-2-senses synonyms (so "shareholder", synonym of
the tagged "stockholder", and "lawsuit", of "suit", stay in).  Core words get all fields, and
syn/ant/hyp lists hold core words only.  The derivationally related forms of core words
("lender" of "lend", "acquirer" of "acquire") are added with `pos` and `der` only.  Cardinal
number words ("million", "ten") get no syn/ant/hyp and appear in no such list.  Exception
forms are kept when one of their lemmas is in the vocabulary.

Senses cut: for syn, hyp and the adjective antonyms inherited through head synsets, a word's
"first 2 senses" are read only in the parts of speech where it has tagged senses (unless it
has none at all), so "fell" (tagged only as a verb) does not become a synonym of "cruel".

Regenerate (deterministic; same input gives byte-identical output):

    python3 scripts/wordnet-table.py [/usr/share/wordnet] > audit/data/wordnet.tsv
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
POS_ORDER = "nvar"
SINGLE = re.compile(r"[a-z]+(?:-[a-z]+)*")
MARKER = re.compile(r"\([a-z]+\)$")  # adjective syntactic markers: "(a)", "(p)", "(ip)"
FIRST_SENSES = 2
# Function words whose WordNet entries are only homographs ("in" = inch, "can" = tin, "will" =
# testament, "us" = United States, "it" = information technology): never headwords or targets.
FUNCTION_WORDS = frozenset(
    "an and as at but by can could he her him his if in into it its may me might must my no "
    "nor not of on or our shall she should so than that the their them they this those to us "
    "we what when which who whom why will with would you your".split()
)
HYPERNYM_LEVELS = 2

# Cardinal numbers: WordNet makes "million", "billion" and "trillion" synonyms (adjective sense
# "very many"), "ten" a synonym of "decade", "hundred" of "century"; figures are compared by the
# engine's own code, so these words get no syn/ant/hyp and appear in no such list.
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million billion trillion dozen".split()
)


def single(word: str) -> bool:
    return len(word) > 1 and word not in FUNCTION_WORDS and SINGLE.fullmatch(word) is not None


class Synset:
    __slots__ = ("key", "ss_type", "words", "ptrs")

    def __init__(self, key, ss_type, words, ptrs):
        self.key = key  # (pos, offset), pos in "nvar"
        self.ss_type = ss_type  # n v a s r
        self.words = words  # lower-cased lemmas, in synset order
        self.ptrs = ptrs  # (symbol, (pos, offset), source word no., target word no.)

    def named_entity(self) -> bool:
        return any(sym == "@i" for sym, _, _, _ in self.ptrs)


def norm_pos(p: str) -> str:
    return "a" if p == "s" else p


def read_data(root: Path) -> dict:
    synsets = {}
    for pos, name in POS_FILES.items():
        with open(root / f"data.{name}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):  # licence header
                    continue
                body = line.split(" | ", 1)[0].split()
                offset, ss_type = int(body[0]), body[2]
                w_cnt = int(body[3], 16)
                words = []
                i = 4
                for _ in range(w_cnt):
                    lemma = MARKER.sub("", body[i]).lower()
                    words.append(lemma)
                    i += 2
                p_cnt = int(body[i])
                i += 1
                ptrs = []
                for _ in range(p_cnt):
                    sym, off, ppos, st = body[i : i + 4]
                    ptrs.append((sym, (norm_pos(ppos), int(off)), int(st[:2], 16), int(st[2:], 16)))
                    i += 4
                synsets[(pos, offset)] = Synset((pos, offset), ss_type, words, ptrs)
    return synsets


def read_index(root: Path):
    """Returns {pos: {lemma: [synset keys in sense order]}} and {(lemma, pos): tagsense_cnt}."""
    senses = {}
    tagged = {}
    for pos, name in POS_FILES.items():
        table = {}
        with open(root / f"index.{name}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                lemma = fields[0]
                synset_cnt, p_cnt = int(fields[2]), int(fields[3])
                tag_cnt = int(fields[5 + p_cnt])
                offsets = fields[6 + p_cnt : 6 + p_cnt + synset_cnt]
                table[lemma] = [(pos, int(o)) for o in offsets]
                tagged[(lemma, pos)] = tag_cnt
        senses[pos] = table
    return senses, tagged


def read_exceptions(root: Path) -> dict:
    base = {}
    for pos in "vnar":
        with open(root / f"{POS_FILES[pos]}.exc", encoding="latin-1") as f:
            for line in f:
                form, *lemmas = line.split()
                if not single(form):
                    continue
                for lemma in lemmas:
                    if single(lemma) and lemma != form:
                        base.setdefault(form, [])
                        if lemma not in base[form]:
                            base[form].append(lemma)
    return base


def build(root: Path) -> list[str]:
    synsets = read_data(root)
    senses, tagged = read_index(root)
    exceptions = read_exceptions(root)

    def live(key) -> bool:
        return not synsets[key].named_entity()

    words = sorted({w for table in senses.values() for w in table if single(w)})
    pos_of = {w: "".join(p for p in POS_ORDER if w in senses[p]) for w in words}

    def common_pos(w: str) -> str:
        """The parts of speech worth reading first senses from: those with tagged senses,
        unless the word has none at all ("fell" is read as a verb, not as "cruel" or "hide")."""
        tagged_pos = "".join(p for p in pos_of[w] if tagged[(w, p)] > 0)
        return tagged_pos or pos_of[w]

    def first(word: str, pos: str) -> list:
        if pos not in common_pos(word):
            return []
        return [k for k in senses[pos].get(word, [])[:FIRST_SENSES] if live(k)]

    syn = defaultdict(set)
    ant = defaultdict(set)
    hyp = defaultdict(set)
    der = defaultdict(set)

    for w in words:
        for pos in common_pos(w):
            tops = first(w, pos)
            for key in tops:
                for other in synsets[key].words:
                    if other != w and single(other) and key in first(other, pos):
                        syn[w].add(other)
            level = tops
            for _ in range(HYPERNYM_LEVELS):
                up = []
                for key in level:
                    for sym, target, _, _ in synsets[key].ptrs:
                        if sym == "@" and live(target):
                            up.append(target)
                            hyp[w].update(x for x in synsets[target].words if single(x) and x != w)
                level = up

    for ss in synsets.values():
        if ss.named_entity():
            continue
        for sym, target, src, tgt in ss.ptrs:
            if sym not in ("!", "+") or src == 0 or not live(target):
                continue
            a, b = ss.words[src - 1], synsets[target].words[tgt - 1]
            if a == b or not (single(a) and single(b)):
                continue
            table = ant if sym == "!" else der
            table[a].add(b)
            table[b].add(a)
        # Adjectives: a head synset's `!` antonym also holds for the synset's other members
        # ("big" in {large, big} -> "small"), and for the members of the satellite synsets
        # pointing at it with `&` ("huge" -> "small").  One direction only, for the members'
        # first 2 senses; the Rust side checks antonymy both ways.
        if ss.key[0] == "a":
            heads = [ss] if ss.ss_type == "a" else [synsets[t] for sym, t, _, _ in ss.ptrs if sym == "&"]
            members = [w for w in ss.words if single(w) and ss.key in first(w, "a")]
            for head in heads:
                for hsym, target, _, tgt in head.ptrs:
                    if hsym != "!" or tgt == 0:
                        continue
                    b = synsets[target].words[tgt - 1]
                    if single(b):
                        for a in members:
                            if a != b:
                                ant[a].add(b)

    # Vocabulary: tagged headwords and their first-sense synonyms make the core, which gets
    # every field; their derived forms ("lender", "acquirer") are added with `pos` and `der`
    # only, and may appear only in `der` lists.
    core = {w for w in words if any(tagged[(w, p)] > 0 for p in pos_of[w])}
    core |= {x for w in list(core) for x in syn[w]}
    vocab = core | {x for w in core for x in der[w]}

    lines = {}
    for w in sorted(vocab):
        fields = [f"pos:{pos_of[w]}"]
        full = w in core and w not in NUMBER_WORDS
        tables = (("syn", syn), ("ant", ant), ("hyp", hyp)) if full else ()
        for name, table in (*tables, ("der", der)):
            allowed = vocab if name == "der" else core - NUMBER_WORDS
            values = sorted(x for x in table[w] if x in allowed)
            if values:
                fields.append(f"{name}:{','.join(values)}")
        lines[w] = fields
    for form, lemmas in exceptions.items():
        kept = [x for x in lemmas if x in vocab]
        if kept:
            lines.setdefault(form, []).append(f"base:{','.join(kept)}")
    return [w + "\t" + "\t".join(fields) for w, fields in sorted(lines.items())]


def debian_version() -> str:
    try:
        done = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", "wordnet-base"], capture_output=True, text=True, check=True
        )
        return done.stdout.strip() or "unknown"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/usr/share/wordnet")
    out = sys.stdout
    out.write(
        f"# WordNet 3.0 (Princeton University), from Debian package wordnet-base {debian_version()}"
        f" ({root}); licence: WORDNET-LICENSE\n"
    )
    out.write("# generated by: python3 scripts/wordnet-table.py /usr/share/wordnet > audit/data/wordnet.tsv\n")
    out.write("# word<TAB>pos:nvar<TAB>syn:..<TAB>ant:..<TAB>hyp:..<TAB>der:..<TAB>base:.. (empty fields omitted; see the script)\n")
    for line in build(root):
        out.write(line + "\n")


if __name__ == "__main__":
    main()
