"""`cubelab solve`: text and JSON output, JSON Lines for --file, errors as records and exit 2."""

import json

import pytest

from cubelab.cube.moves import apply_moves
from cubelab.cube.notation import parse_moves
from cubelab.cube.positions import parse_position
from cubelab.tui.cli import main

CONTRACT_KEYS = {"solver", "solution", "length", "optimal", "nodes", "seconds", "verified"}


def test_unknown_solver_is_bad_input(capsys):
    assert main(["solve", "--solver", "nope", "R U"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cubelab: ") and "nope" in err and len(err.strip().splitlines()) == 1


def test_unknown_table_set_is_bad_input(capsys):
    assert main(["solve", "--solver", "korf", "--tables", "tiny", "R U"]) == 2
    assert "tiny" in capsys.readouterr().err
    # the default solver has no table sets: refused before it is made
    assert main(["solve", "--tables", "tiny", "R U"]) == 2
    assert "no table sets" in capsys.readouterr().err


def test_bad_alg_is_bad_input(capsys):
    assert main(["solve", "R U)"]) == 2
    assert capsys.readouterr().err.startswith("cubelab: ")


@pytest.mark.slow
def test_json_has_the_contract_keys(capsys):
    assert main(["solve", "--json", "R U R' U' F2 D L'"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert CONTRACT_KEYS <= set(record)
    assert record["solver"] == "kociemba" and record["verified"] is True
    moves = parse_moves(record["solution"])
    assert record["length"]["htm"] == len(moves) <= 20
    state = parse_position("R U R' U' F2 D L'").state
    assert apply_moves(state, moves).is_solved()


@pytest.mark.slow
def test_text_output(capsys):
    assert main(["solve", "--max-length", "20", "F R U"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(parse_moves(out[0])) <= 20
    assert out[1].startswith("length") and "HTM" in out[1]
    assert "nodes" in out[2] and "verified" in out[3]


@pytest.mark.slow
def test_unreachable_position_is_refused(capsys):
    twisted = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
    # twist the URF corner in place: U9 R1 F3 -> F3 U9 R1
    s = list(twisted)
    s[8], s[9], s[20] = "F", "U", "R"
    assert main(["solve", "--facelets", "".join(s)]) == 2
    assert "corner twisted" in capsys.readouterr().err


@pytest.mark.slow
def test_file_gives_json_lines_in_order_with_error_records(tmp_path, capsys):
    path = tmp_path / "positions.txt"
    path.write_text("R U\n# a comment\nR U)\n\nfacelets: "
                    "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB\nF2 B'\n")
    assert main(["solve", "--json", "--max-length", "20", "--file", str(path)]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["line"] for r in records] == [1, 3, 5, 6]
    assert "error" in records[1] and CONTRACT_KEYS.isdisjoint(records[1])
    assert records[2]["solution"] == "" and records[2]["length"]["htm"] == 0
    for r in (records[0], records[3]):
        assert CONTRACT_KEYS <= set(r) and r["verified"] is True
    assert records[3]["length"]["htm"] == 2


def test_a_one_shot_solve_reads_table_mappings_unless_its_searches_run_long(monkeypatch, capsys):
    # copying two-phase's 480 MB into private huge pages cost one solve more than its search;
    # Korf's searches repay their copies, so they keep them
    from cubelab.solvers import REGISTRY
    from cubelab.tables import memory
    shared = []
    monkeypatch.setattr(memory, "share_mappings", lambda: shared.append(True))
    assert main(["solve", "--solver", "thistlethwaite", "--json", "R U F"]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] and shared == [True]
    assert REGISTRY.describe("korf").long_searches and REGISTRY.describe("korf-qtm").long_searches
    assert not REGISTRY.describe("kociemba").long_searches
