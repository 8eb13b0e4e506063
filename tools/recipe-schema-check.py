#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Validate run recipes against Documentation/run-recipes.schema.json.

Usage: recipe-schema-check.py SCHEMA RECIPE...
Prints one line per recipe; exits 1 if any is invalid (python3-jsonschema).
"""
import json
import sys

import jsonschema


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors:
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}"
                            for p in e.path).lstrip(".")
            print(f"{path}: {where or '(root)'}: {e.message}")
        if errors:
            bad += 1
        else:
            print(f"recipe-schema-check: {path}: valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
