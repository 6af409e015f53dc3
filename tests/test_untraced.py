"""tests/untraced.py: which tests may run untraced by coverage."""

from tests.untraced import choose, name_of


def test_a_test_is_named_without_its_parameters_and_phase() -> None:
    assert name_of("tests/a.py::test_x[zh-1]|run") == "tests/a.py::test_x"
    assert name_of("tests/a.py::test_y|setup") == "tests/a.py::test_y"


def test_the_longest_tests_go_untraced_only_while_traced_ones_cover_their_branches() -> None:
    arcs = {
        "long": {("f", 1, 2), ("f", 2, 3)},
        "middle": {("f", 1, 2)},
        "short": {("f", 2, 3), ("f", 3, 4)},
        "alone": {("g", 1, 2)},
    }
    seconds = {"long": 9.0, "middle": 5.0, "short": 1.0, "alone": 0.5}
    untraced, lost = choose(arcs, seconds, loss_seconds=100.0, loss_arcs=0)
    assert untraced == ["long"] and lost == {}  # middle alone now covers f:1->2
    untraced, lost = choose(arcs, seconds, loss_seconds=4.0, loss_arcs=1)
    assert untraced == ["long", "middle"] and lost == {"middle": [("f", 1, 2)]}
    untraced, lost = choose(arcs, seconds, loss_seconds=4.0, loss_arcs=0, seconds_per_arc=5.0)
    assert untraced == ["long", "middle"]  # 5 s: one branch of its own may go
