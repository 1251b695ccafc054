"""Chinese, Japanese and other scripts written without spaces (issue 17): a word or a number inside a run of them is
found, mixed English/Chinese turns keep both, an older store is re-indexed when it opens, and forgetting takes the
index rows along. BM25 alone (`embedder="off"`), so what is found is what the index holds."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from episodic_memory import Memory
from episodic_memory.config import Config
from episodic_memory.memory import journal_dir_for
from episodic_memory.retrieve.fts import fts_query, lookups, query_terms
from episodic_memory.store import is_postgres_url
from episodic_memory.store.scripts import segmented, tokens

from .postgres.fixtures import all_rows_text, sql_rows

pytestmark = pytest.mark.both_backends  # tests taking db_path run on SQLite and PostgreSQL

LEXICAL = Config(models={"embedder": "off"}, capture={"consolidate_in_background": "off"})

TURNS = [
    "我明天去东京出差，周五回来。",
    "王总的手机号是13910237788请帮我存一下",
    "明日は東京タワーに行きます。",
    "今天天气很好，我们去公园散步吧。",
    "我女儿朵朵发烧了，三十八度五。",
    "I need to buy milk and eggs tomorrow.",
    "Meeting with 王总 at 国贸 about the APP launch",
    "週末は大阪で友達と会う予定です。",
]


def _memory(db_path: Path | str) -> Memory:
    mem = Memory(db_path, config=LEXICAL)
    for i, text in enumerate(TURNS):
        mem.add_turn("user", text, session_id="s1", turn_id=f"t{i}")
    return mem


def _first(mem: Memory, query: str) -> str | None:
    hits = mem.recall(query, k=3)
    return hits[0].text if hits else None


def test_segmentation_pairs_runs_and_splits_numbers_and_latin_out() -> None:
    assert segmented("I need to buy milk") is None  # English text leaves the index column empty
    # pairs in order (a phrase of pairs stays whole), then each Han, kana or Hangul character of a longer run alone
    assert segmented("我去东京") == "我去 去东 东京 我 去 东 京"
    assert segmented("电话13812345678请回电") == "电话 13812345678 请回 回电 电 话 请 回 电"
    assert segmented("买了iPhone15手机") == "买了 iphone15 手机 买 了 手 机"
    assert segmented("猫、狗") == "猫 狗"  # a run of one character is itself
    assert segmented("電話１３８番") == "電話 138 番 電 話"  # full-width digits fold to ASCII
    assert segmented("서울에서") == "서울 울에 에서 서 울 에 서"  # Hangul syllables alone too
    assert segmented("ทดสอบ") == "ทด ดส สอ อบ"  # Thai letters are not words alone: pairs only
    assert tokens("「東京タワー」and more") == ["東京", "京タ", "タワ", "ワー", "and", "more"]
    assert query_terms("东京的酒店") == ["东京", "京的", "的酒", "酒店", "东", "京", "的", "酒", "店"]
    assert query_terms("东京的酒店", singles=False) == ["东京", "京的", "的酒", "酒店"]
    assert fts_query('东京" OR "x') == '"东京" OR "东" OR "京" OR "x"'  # quotes and operators stay words


def test_exact_lookups_see_a_number_inside_chinese_and_a_quoted_japanese_phrase() -> None:
    found = {x.text: x for x in lookups("13910237788是谁的号码？")}
    assert found["13910237788"].shape == "identifier"
    quoted = {x.text: x for x in lookups("「東京タワー」の予約は？")}
    assert quoted["東京タワー"].shape == "quoted" and quoted["東京タワー"].match == '"東京 京タ タワ ワー"'


def test_a_chinese_or_japanese_word_inside_a_run_is_found(db_path: Path) -> None:
    with _memory(db_path) as mem:
        assert _first(mem, "东京") == TURNS[0]
        assert _first(mem, "東京タワー") == TURNS[2]
        assert _first(mem, "朵朵发烧多少度？") == TURNS[4]
        assert _first(mem, "大阪で誰と会う？") == TURNS[7]
        assert [h.text for h in mem.recall("東")] == [TURNS[2]]  # 東 is not 东: no folding between the two
        assert [h.text for h in mem.recall("東京")][0] == TURNS[2]  # 东京's turn shares 京 alone: below


def test_a_thai_word_inside_a_run_is_found(db_path: Path) -> None:
    with Memory(db_path, config=LEXICAL) as mem:
        mem.add_turn("user", "ฉันชอบกินข้าวมันไก่ที่ร้านใกล้บ้าน", session_id="s")  # vowel marks: ั ้ ่ ี
        mem.add_turn("user", "พรุ่งนี้ฉันจะไปทำงานแต่เช้า", session_id="s")
        assert _first(mem, "ข้าวมันไก่") == "ฉันชอบกินข้าวมันไก่ที่ร้านใกล้บ้าน"
        assert _first(mem, "ทำงาน") == "พรุ่งนี้ฉันจะไปทำงานแต่เช้า"
        assert _first(mem, "ข้า") == "ฉันชอบกินข้าวมันไก่ที่ร้านใกล้บ้าน"  # both pairs carry the mark ้


def test_a_number_inside_a_chinese_run_is_found_by_itself(db_path: Path) -> None:
    with _memory(db_path) as mem:
        assert _first(mem, "13910237788") == TURNS[1]
        assert _first(mem, "13910237788是谁的号码？") == TURNS[1]
        assert _first(mem, "王总的电话") == TURNS[1]


def test_a_mixed_english_and_chinese_turn_is_found_by_either(db_path: Path) -> None:
    with _memory(db_path) as mem:
        assert _first(mem, "launch meeting") == TURNS[6]
        assert _first(mem, "国贸") == TURNS[6]
        assert _first(mem, "milk") == TURNS[5]
        rows = dict(sql_rows(mem.store, "SELECT turn_id, segmented FROM turns"))
        assert rows["t5"] is None and rows["t6"] == "王总 国贸 王 总 国 贸"  # English alone adds nothing to the index


def _bytes_everywhere(db_path: Path | str) -> bytes:
    if is_postgres_url(str(db_path)):
        return all_rows_text(str(db_path))
    path = Path(db_path)
    blobs = [p.read_bytes() for p in path.parent.glob(path.name + "*") if p.is_file()]
    blobs += [p.read_bytes() for p in journal_dir_for(path).rglob("*") if p.is_file()]
    return b"".join(blobs)


def test_forget_takes_the_character_pairs_out_of_the_index(db_path: Path) -> None:
    canary = "琥珀砝码"  # its pairs 琥珀 珀砝 砝码 are what the index holds
    with Memory(db_path, config=LEXICAL) as mem:
        mem.add_turn("user", f"我的保险箱密码藏在{canary}下面", session_id="secret")
        mem.add_turn("user", "我今天去超市买了牛奶", session_id="other")
        assert _first(mem, "砝码") is not None
        assert "珀砝".encode() in _bytes_everywhere(db_path)
        mem.forget(session_id="secret")
        assert mem.recall("砝码") == [] and mem.recall("琥珀") == []
        assert _first(mem, "牛奶") == "我今天去超市买了牛奶"
        if not is_postgres_url(str(db_path)):  # the index itself has no row left for the pairs
            assert sql_rows(mem.store, "SELECT rowid FROM turns_fts WHERE turns_fts MATCH ?", ('"砝码"',)) == []
        assert sql_rows(mem.store, "SELECT count(*) FROM turns WHERE segmented LIKE ?", ("%砝码%",)) == [(0,)]
        assert "珀砝".encode() not in _bytes_everywhere(db_path)


@pytest.mark.sqlite_only("builds an SQLite file at the previous schema; the PostgreSQL twin is below")
def test_an_older_sqlite_store_is_reindexed_on_open(db_path: Path) -> None:
    from episodic_memory.store.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION

    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    before = [m.__name__ for m in MIGRATIONS].index("m015_unsegmented_scripts")
    for version, migration in enumerate(MIGRATIONS[:before], 1):  # the schema before unsegmented scripts
        migration(db)
        db.execute("INSERT INTO _migrations VALUES (?, ?, 0)", (version, migration.__name__))
    db.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at) VALUES ('default', 's', 0, 0)")
    for i, text in enumerate(TURNS):
        db.execute("INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at) "
                   "VALUES (?, 'default', 's', ?, 'user', ?, ?, 0)", (f"u{i}", i, text, 1000 + i))
    db.commit()
    assert db.execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH '\"东京\"'").fetchall() == []  # the bug
    db.close()
    with Memory(db_path, config=LEXICAL) as mem:
        assert mem.stats()["schema_version"] == SCHEMA_VERSION
        assert _first(mem, "东京") == TURNS[0]
        assert _first(mem, "13910237788") == TURNS[1]
        assert _first(mem, "milk") == TURNS[5]  # English turns are indexed as before
        mem.forget(session_id="s")  # the rebuilt index still follows deletions
        assert mem.recall("东京") == [] and mem.recall("milk") == []
        assert mem.store.db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('integrity-check')") is not None


def _postgres_before(request: pytest.FixtureRequest, name: str, migration: str,
                     segment: Callable[[str], str | None] | None = None) -> str:
    """The URL of a PostgreSQL database at the schema before `migration` (recorded as the code of its day did, by
    position), session 's' holding TURNS (with `segment(text)` in their `segmented` column when given)."""
    from episodic_memory.store.postgres.cluster import available
    if not available():
        pytest.skip("the postgres extra is not installed")
    import psycopg

    from episodic_memory.store.postgres.migrations import MIGRATIONS

    cluster = request.getfixturevalue("pg_cluster")
    with psycopg.connect(cluster.url(), autocommit=True) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        db.execute(f"CREATE DATABASE {name}")
    url: str = cluster.url(name)
    with psycopg.connect(url, autocommit=True) as db, db.transaction():
        db.execute("CREATE TABLE _migrations (version integer PRIMARY KEY, name text NOT NULL, "
                   "applied_at double precision NOT NULL)")
        before = [m.__name__ for m in MIGRATIONS].index(migration)
        for version, step in enumerate(MIGRATIONS[:before], 1):
            step(db)
            db.execute("INSERT INTO _migrations VALUES (%s, %s, 0)", (version, step.__name__))
        db.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at) VALUES ('default', 's', 0, 0)")
        for i, text in enumerate(TURNS):
            columns, values = ("", "") if segment is None else (", segmented", ", %s")
            db.execute(f"INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at{columns}) "
                       f"VALUES (%s, 'default', 's', %s, 'user', %s, %s, 0{values})",
                       (f"u{i}", i, text, 1000 + i, *(() if segment is None else (segment(text),))))
        db.execute("UPDATE sessions SET turn_count = 8, lexemes = (SELECT sum(length(tsv)) FROM turns)")
    return url


@pytest.mark.sqlite_only("runs its own PostgreSQL database at the previous schema")
def test_an_older_postgres_database_is_reindexed_on_open(request: pytest.FixtureRequest) -> None:
    from episodic_memory.store.postgres.migrations import SCHEMA_VERSION

    url = _postgres_before(request, "older_cjk", "m015_unsegmented_scripts")
    with Memory(url, config=LEXICAL) as mem:
        assert mem.stats()["schema_version"] == SCHEMA_VERSION
        assert _first(mem, "东京") == TURNS[0]
        assert _first(mem, "13910237788") == TURNS[1]
        assert _first(mem, "milk") == TURNS[5]
        lexemes = sql_rows(mem.store, "SELECT lexemes, (SELECT sum(length(tsv)) FROM turns) FROM sessions")
        assert lexemes[0][0] == lexemes[0][1]  # BM25's lengths counted again with the pairs
        mem.forget(session_id="s")
        assert mem.recall("东京") == []


SAMPLES = [*TURNS, "電話１３８番", "买了iPhone15手机", "猫、狗", "서울에서 만나요", "no script here", "ทดสอบภาษาไทย",
           "ＡＢＣ東京ｘｙｚ", "半角ｶﾀｶﾅです", "Meeting在3点", ""]


def test_derived_memories_are_indexed_as_pairs_too(db_path: Path) -> None:
    """memory_fts (facts, episodes, workstreams, judgments) holds the pairs as well, written by its triggers: a
    Chinese judgment is found by a word inside its text, BM25 alone."""
    with Memory(db_path, config=LEXICAL) as mem:
        mem.judgments.store("客户要求周末上线新版本", "先在测试环境回归再发布", "上次周末发布出过事故")
        mem.judgments.store("The deploy window is on Friday", "Ship on Monday", "a calm week")
        assert [h.judgment for h in mem.judgments.search("周末上线怎么办？", top_k=2)] == ["先在测试环境回归再发布"]
        rows = sql_rows(mem.store, "SELECT count(*) FROM memory_fts WHERE kind = 'judgment'")
        assert rows == [(2,)]


def test_postgres_twin_of_the_segmentation_agrees(request: pytest.FixtureRequest, db_path: Path) -> None:
    if not is_postgres_url(str(db_path)):
        pytest.skip("the SQL twin lives in PostgreSQL")
    with Memory(db_path, config=LEXICAL) as mem:
        for text in SAMPLES:
            assert sql_rows(mem.store, "SELECT episodic_segmented(?)", (text,)) == [(segmented(text),)], text


def test_a_speaker_named_inside_a_run_is_found_and_left_out_of_the_dense_query() -> None:
    from episodic_memory.retrieve.query import find_names, strip_names

    assert find_names("王小明上周说了什么？", ["王小明", "李明"]) == ["王小明"]  # no word boundary inside the run
    assert find_names("김지훈이 뭐라고 했어?", ["김지훈", "비서"]) == ["김지훈"]   # a particle stuck to the name
    assert find_names("小明说了什么", ["王小明"]) == []                          # part of a name is not the name
    assert find_names("王总的电话", ["王"]) == []                               # one character is no name alone
    assert find_names("what did caroline say", ["Caroline", "王小明"]) == ["Caroline"]
    assert strip_names("王小明上周说了什么？", ["王小明"]) == "上周说了什么？"
    assert strip_names("김지훈이 뭐라고 했어?", ["김지훈"]) == "이 뭐라고 했어?"


def test_the_speaker_named_in_a_chinese_question_gets_the_speaker_bonus(db_path: Path) -> None:
    with Memory(db_path, config=LEXICAL) as mem:
        mem.add_turn("user", "我下周三去上海开会。", speaker="王小明", session_id="s", turn_id="a")
        mem.add_turn("user", "我下周三去上海开会。", speaker="李思思", session_id="s", turn_id="b")
        first = mem.recall("王小明下周三去哪里开会？", k=2)[0]
        assert first.speaker == "王小明"
        first = mem.recall("李思思下周三去哪里开会？", k=2)[0]
        assert first.speaker == "李思思"


def _pairs_only(text: str) -> str | None:
    """What `segmented` held before m021: the phrase terms alone."""
    from episodic_memory.store.scripts import expand

    seg = segmented(text)
    return None if seg is None else " ".join(t for w in text.split() for t in expand(w) if t) or None


@pytest.mark.sqlite_only("builds an SQLite file at the schema before m021; the PostgreSQL twin is below")
def test_a_store_indexed_with_pairs_only_gains_single_characters_on_open(db_path: Path) -> None:
    from episodic_memory.store.sqlite.migrations import MIGRATIONS, SCHEMA_VERSION

    db = sqlite3.connect(db_path)
    db.create_function("episodic_segmented", 1, _pairs_only, deterministic=True)  # the store's function before m021
    db.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
    before = [m.__name__ for m in MIGRATIONS].index("m021_single_characters")
    for version, migration in enumerate(MIGRATIONS[:before], 1):
        migration(db)
        db.execute("INSERT INTO _migrations VALUES (?, ?, 0)", (version, migration.__name__))
    db.execute("INSERT INTO sessions (user_id, session_id, created_at, updated_at) VALUES ('default', 's', 0, 0)")
    for i, text in enumerate(TURNS):
        db.execute("INSERT INTO turns (uid, user_id, session_id, seq, role, content, ts, ingested_at, segmented) "
                   "VALUES (?, 'default', 's', ?, 'user', ?, ?, 0, ?)", (f"u{i}", i, text, 1000 + i, _pairs_only(text)))
    db.commit()
    assert db.execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH '\"朵\"'").fetchall() == []  # pairs only
    db.close()
    with Memory(db_path, config=LEXICAL) as mem:
        assert mem.stats()["schema_version"] == SCHEMA_VERSION
        assert [h.text for h in mem.recall("朵")] == [TURNS[4]]  # 朵 alone, inside 朵朵
        assert _first(mem, "东京") == TURNS[0] and _first(mem, "milk") == TURNS[5]
        mem.forget(session_id="s")
        assert mem.recall("朵") == []
        assert mem.store.db.execute("INSERT INTO turns_fts (turns_fts) VALUES ('integrity-check')") is not None


@pytest.mark.sqlite_only("runs its own PostgreSQL database at the schema before m021")
def test_a_postgres_database_indexed_with_pairs_only_gains_single_characters(request: pytest.FixtureRequest) -> None:
    import psycopg

    from episodic_memory.store.postgres.migrations import SCHEMA_VERSION

    url = _postgres_before(request, "older_singles", "m021_single_characters", _pairs_only)
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("INSERT INTO judgments (memory_id, user_id, trigger, judgment, reasoning, dedup_key, created_at, "
                   "updated_at) VALUES ('j1', 'default', '客户要求周末上线', '先回归再发布', '上次出过事故', 'k', 0, 0)")
        assert db.execute("SELECT episodic_segmented('朵朵')").fetchone() == ("朵朵",)  # the twin before m021
    with Memory(url, config=LEXICAL) as mem:
        assert mem.stats()["schema_version"] == SCHEMA_VERSION
        assert [h.text for h in mem.recall("朵")] == [TURNS[4]]
        assert sql_rows(mem.store, "SELECT episodic_segmented(?)", ("朵朵",)) == [(segmented("朵朵"),)]
        assert sql_rows(mem.store, "SELECT count(*) FROM memory_fts WHERE tsv @@ to_tsquery('episodic', '周')") == [(1,)]
        lexemes = sql_rows(mem.store, "SELECT lexemes, (SELECT sum(length(tsv)) FROM turns) FROM sessions")
        assert lexemes[0][0] == lexemes[0][1]  # BM25's lengths counted again with the single characters
        mem.forget(session_id="s")
        assert mem.recall("朵") == []
