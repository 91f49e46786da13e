#!/usr/bin/env bash
# The decisions record's links: docs/decisions.md (the index) and docs/decisions/*.md,
# docs/performance.md; every `docs/decisions.md#<id>` cited in the repository resolves
# (tools/docs/check_links.py); no protocol literal in a host protocol file: every value of a
# rule comes from the manifest's constants (tools/docs/protocol_literals.py, issue 42).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/docs/check_links.py
python3 tools/docs/protocol_literals.py --self-test
python3 tools/docs/protocol_literals.py
