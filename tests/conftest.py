"""Fixtures shared by every test. Integration fixtures live in tests/integration/conftest.py."""
