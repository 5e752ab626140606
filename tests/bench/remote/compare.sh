#!/bin/sh
# Whole-process timings of strata-cli on a local file against the same file from nginx-light on
# 127.0.0.1 (a config like the test servers'): `zs dump` and `zs validate` of the corpus's
# big-ngrams-1m.zs, `zt validate` of a 1 GiB .zt (16 float32 tensors of 64 MiB, raw, crc32c
# digests; made once from a generated .npz with `zt import`). Medians of 5 runs (and the best),
# the request count of one run (`-v`), and for scale `curl` fetching the whole file once.
#   tests/bench/remote/compare.sh BUILD_DIR [CORPUS_DIR]
# Run it with the CPU lock held (flock /tmp/strata-cpu.lock ...). STRATA_CLI=path times another
# strata-cli binary (a build from before a change) against the same server and files.
# STRATA_BENCH_SENDFILE=on serves with nginx's sendfile (off by default, as in the tests).
set -eu
build=${1:?usage: compare.sh BUILD_DIR [CORPUS_DIR]}
corpus=${2:-$(dirname "$0")/../../../../shared/corpus}
cli=${STRATA_CLI:-$build/app/cli/strata-cli}
work=${STRATA_BENCH_DIR:-/tmp/strata-bench}/remote-compare
www="$work/www"
mkdir -p "$www"
ln -sf "$(realpath "$corpus/zs/valid/big-ngrams-1m.zs")" "$www/big-ngrams-1m.zs"

zt="$www/big.zt"
if [ ! -s "$zt" ]; then
    python3 - "$work/big.npz" <<'PY'
import array, sys, zipfile
n = 16 * 1024 * 1024  # float32 elements per tensor: 64 MiB
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n
header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
prefix = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
chunk = array.array("f", [float(i % 9973) * 0.5 - 100.0 for i in range(1 << 20)]).tobytes()
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED, allowZip64=True) as z:
    for t in range(16):
        with z.open("layer%02d.npy" % t, "w", force_zip64=True) as f:
            f.write(prefix)
            for _ in range(16):
                f.write(chunk)
PY
    "$build/app/cli/strata-cli" zt import --digest crc32c "$work/big.npz" "$zt"
    rm -f "$work/big.npz"
fi

# nginx as the tests start it (tests/remote/remote_servers.cpp), on a free port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
conf="$work/nginx"
mkdir -p "$conf/body" "$conf/proxy" "$conf/fastcgi" "$conf/uwsgi" "$conf/scgi"
cat > "$conf/nginx.conf" <<CONF
daemon off;
master_process off;
pid $conf/nginx.pid;
error_log $conf/error.log warn;
events { worker_connections 512; }
http {
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path $conf/body;
  proxy_temp_path $conf/proxy;
  fastcgi_temp_path $conf/fastcgi;
  uwsgi_temp_path $conf/uwsgi;
  scgi_temp_path $conf/scgi;
  keepalive_requests 100000;
  sendfile ${STRATA_BENCH_SENDFILE:-off};
  server { listen 127.0.0.1:$port; root $www; }
}
CONF
/usr/sbin/nginx -p "$conf" -e "$conf/error.log" -c "$conf/nginx.conf" &
nginx=$!
trap 'kill $nginx 2>/dev/null; wait $nginx 2>/dev/null' EXIT INT TERM
for _ in 1 2 3 4 5 6 7 8 9 10; do
    curl -sf -o /dev/null "http://127.0.0.1:$port/big-ngrams-1m.zs" -r 0-0 && break
    sleep 0.2
done
url="http://127.0.0.1:$port"

times5() {  # wall seconds of a command run 5 times, sorted
    for run in 1 2 3 4 5; do
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -n
}

requests() {  # requests one run makes (strata-cli -v prints one line per request)
    "$cli" -v "$@" 2>&1 >/dev/null | grep -c 'bytes=' || true
}

row() {  # label, file, command words...
    label=$1 file=$2
    shift 2
    local_t=$(times5 "$cli" "$@" "$www/$file")
    remote_t=$(times5 "$cli" "$@" "$url/$file")
    local_s=$(echo "$local_t" | sed -n 3p)
    remote_s=$(echo "$remote_t" | sed -n 3p)
    echo "$label: local $local_s s (best $(echo "$local_t" | head -1)), HTTP $remote_s s (best $(echo "$remote_t" | head -1)), $(echo "scale=0; 100 * $local_s / $remote_s" | bc)% of local, $(requests "$@" "$url/$file") requests"
}

row "zs dump big-ngrams-1m.zs" big-ngrams-1m.zs zs dump
row "zs validate big-ngrams-1m.zs" big-ngrams-1m.zs zs validate
row "zt validate big.zt (1 GiB)" big.zt zt validate
echo "curl, whole big.zt over one connection: $(times5 curl -s -o /dev/null "$url/big.zt" | sed -n 3p) s"
