#!/usr/bin/env bash
# The docs: the decisions record's links (docs/decisions.md, the index, and docs/decisions/*.md,
# docs/performance.md; every `docs/decisions.md#<id>` cited in the repository resolves:
# tools/docs/check_links.py); no protocol literal in a host protocol file: every value of a
# rule comes from the manifest's constants (tools/docs/protocol_literals.py, issue 42); then the
# site of `./run docs` built and checked (scripts/docs.sh: rustdoc, pdoc and TypeDoc references
# and every Markdown page as HTML; no broken link or anchor, every public item of each package
# present: tools/docs/check_site.py). Reuses the python step's wheel and the rust step's rustdoc
# output.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/docs/check_links.py
python3 tools/docs/protocol_literals.py --self-test
python3 tools/docs/protocol_literals.py
bash scripts/docs.sh
