#!/usr/bin/env bash
# Strata's one entry point for a fresh Debian 12 machine: installs the Debian packages the build
# needs (only those missing), configures with a CMake preset, builds, then runs something.
#
#   ./bootstrap.sh run     build the two programs and open resources/samples/sample.zs in Strata
#   ./bootstrap.sh test    build everything and run the whole test suite (ctest)
#   ./bootstrap.sh asan    build the tests and fuzzers with ASan + UBSan (clang), run the tests
#                          and replay each fuzzer's seeds
#   ./bootstrap.sh fuzz    build the libFuzzer targets (clang) and run each briefly
#   ./bootstrap.sh deps    only install the packages
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
    build-essential cmake pkg-config ccache git
    qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    nlohmann-json3-dev libzip-dev liblzma-dev zlib1g-dev libzstd-dev libssl-dev libisal-dev
    libsimdjson-dev libcli11-dev libicu-dev libgtest-dev libbenchmark-dev
    libcurl4-openssl-dev libpugixml-dev nginx-light python3 openssl time
    clang libclang-rt-14-dev
    desktop-file-utils appstream shared-mime-info libxml2-utils fonts-dejavu-core
    fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
)

install_packages() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "bootstrap: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -q
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends \
        "${missing[@]}"
}

# The remote tests' S3 server comes from npm. Debian's nodejs/npm are installed only when no
# node is present (a NodeSource node ships its own npm, which Debian's npm package conflicts
# with). Installed into build/npm, beside the build trees, where tests/remote looks for it.
S3RVER_VERSION=3.7.1
install_s3rver() {
    [ -f build/npm/node_modules/s3rver/package.json ] && return 0
    if ! command -v npm >/dev/null 2>&1; then
        local sudo=()
        [ "$(id -u)" -eq 0 ] || sudo=(sudo)
        echo "bootstrap: installing nodejs npm"
        "${sudo[@]}" apt-get update -q
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
            --no-install-recommends nodejs npm
    fi
    echo "bootstrap: npm install s3rver@$S3RVER_VERSION into build/npm"
    mkdir -p build/npm
    npm install --prefix build/npm --no-audit --no-fund --loglevel=error \
        "s3rver@$S3RVER_VERSION"
}

build() {  # build PRESET [TARGET...]; no target: everything
    local preset=$1
    shift
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" ${1:+--target "$@"}
}

mode=${1:-run}
install_packages
case "$mode" in
    deps) install_s3rver ;;
    run)
        # Only the programs: launching needs neither the test suites nor the corpus.
        build release strata strata-cli
        app=build/release/app/gui/strata
        if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
            echo "bootstrap: no display (DISPLAY/WAYLAND_DISPLAY unset); built $app"
            echo "bootstrap: run it on a desktop, or: QT_QPA_PLATFORM=offscreen $app --screenshot shot.png resources/samples/sample.zs"
            exit 0
        fi
        exec "$app" --new-instance resources/samples/sample.zs
        ;;
    test)
        install_s3rver
        build release
        ctest --preset release
        ;;
    asan)
        install_s3rver
        build asan
        ASAN_OPTIONS=detect_leaks=1 ctest --preset asan
        ;;
    fuzz)
        cmake --preset fuzz >/dev/null
        cmake --build --preset fuzz --target strata_fuzzers
        tests/fuzz/run_fuzzers.sh build/fuzz "${FUZZ_SECONDS:-20}"
        ;;
    *)
        echo "usage: $0 [run|test|asan|fuzz|deps]" >&2
        exit 2
        ;;
esac
