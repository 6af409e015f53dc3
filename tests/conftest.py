import pytest


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="run the long invariant runs too")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long runs, enabled with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long run: use --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
