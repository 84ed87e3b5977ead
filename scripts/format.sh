#!/usr/bin/env bash
# Lints every tracked Swift file with swift-format and the project's .swift-format rules.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z '*.swift' | xargs -0 swift format lint --strict --parallel
