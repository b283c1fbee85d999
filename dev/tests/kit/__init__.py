"""The test kit: the builds of the test suite (builds.py) and the mart comparison (compare.py)."""
