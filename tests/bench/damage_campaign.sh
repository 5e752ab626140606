#!/usr/bin/env bash
# The repair campaign at length: CASES generated, damaged and repaired inputs per format (default
# 10,000; CI runs 40), every case held to the rules of docs/repair.md. Prints each format's
# counts (complete, with losses, refused, breaking a rule) and the first failing cases.
#   tests/bench/damage_campaign.sh [CASES] [BUILD_DIR]     (BUILD_DIR: build/release)
# STRATA_CAMPAIGN_SEED picks another seed; STRATA_CAMPAIGN_KEEP=DIR keeps each failing case.
set -euo pipefail
cd "$(dirname "$0")/../.."
cases=${1:-10000}
build=${2:-build/release}
STRATA_CAMPAIGN_CASES=$cases "$build/tests/formats/strata_formats_tests" \
    --gtest_filter='DamageCampaign.*' --gtest_brief=1 2>&1 |
    grep -E '^(campaign |  [0-9]+ x |.*case [0-9]+ \()' || true
