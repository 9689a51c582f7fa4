"""Pig: a dice game that is not in the product, written as ``games/rules/README.md`` says a kind
is written, to show that a kind is its own modules plus one registration (the tests')."""
