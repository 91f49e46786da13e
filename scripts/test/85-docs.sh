#!/usr/bin/env bash
# The decisions record's links: docs/decisions.md (the index) and docs/decisions/*.md,
# docs/performance.md; every `docs/decisions.md#<id>` cited in the repository resolves
# (tools/docs/check_links.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/docs/check_links.py
