#!/usr/bin/env bash
# Real Ollama server for CI: build-or-reuse, start, stop.
#
#   .ci/ollama.sh build   build Ollama v0.17.4 from the Go module proxy into the
#                         cache (reused when present); prints the binary path
#   .ci/ollama.sh start   start it on 127.0.0.1 with isolated state, create the
#                         scripted tiny model, print the base URL on stdout
#   .ci/ollama.sh stop    stop the server started by `start`
#   .ci/ollama.sh env     print BFCL_OLLAMA_URL=... / BFCL_OLLAMA_MODEL=... of the
#                         running server (for `eval "$(.ci/ollama.sh env)"`)
#
# Environment (all optional):
#   OLLAMA_CI_CACHE  binary cache dir   (default $HOME/.cache/bfcl-go/ollama)
#   OLLAMA_CI_PORT   loopback port      (default 11500)
#   OLLAMA_CI_RUN    state dir of a run (default ${TMPDIR:-/tmp}/bfcl-go-ollama-$OLLAMA_CI_PORT)
#   OLLAMA_CI_MODEL  model name         (default bfcl-tiny-scripted)
#   OLLAMA_CI_NICE   nice level of the build (default 19)
#
# Measured on a 2-core CI-like machine (2026-11-30): build 6 min 20 s
# (first time only; ~0.03 s when cached), start 0.3-4.7 s (GGUF generation,
# server ready, model created), real-server specs ~3 s, stop 1-2 s.
#
# Only loopback is ever used. Diagnostics go to stderr; stdout carries only
# the one value each subcommand prints.
set -euo pipefail

VERSION=v0.17.4
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
CACHE="${OLLAMA_CI_CACHE:-$HOME/.cache/bfcl-go/ollama}"
PORT="${OLLAMA_CI_PORT:-11500}"
RUN="${OLLAMA_CI_RUN:-${TMPDIR:-/tmp}/bfcl-go-ollama-$PORT}"
MODEL="${OLLAMA_CI_MODEL:-bfcl-tiny-scripted}"
NICE="${OLLAMA_CI_NICE:-19}"
STUB="$ROOT/fixtures/ollama/stub-include"
LDFLAGS="-s -w -X github.com/ollama/ollama/version.Version=${VERSION#v}"
# the cache key covers everything that changes the binary
KEY="$(printf '%s\n%s\n%s\n%s\n' "$VERSION" "$LDFLAGS" "$(go env GOVERSION)" "$(sha256sum "$STUB/miniaudio/miniaudio.h" | cut -c1-64)" | sha256sum | cut -c1-12)"
BIN_DIR="$CACHE/ollama-$VERSION-$KEY"
BIN="$BIN_DIR/ollama"

log() { printf '[ollama.sh] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need_headers() {
	[ -f /usr/include/nlohmann/json_fwd.hpp ] && [ -f /usr/include/stb/stb_image.h ] && return 0
	log "installing build headers: nlohmann-json3-dev libstb-dev"
	local sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	if ! $sudo apt-get install -y --no-install-recommends nlohmann-json3-dev libstb-dev >&2; then
		$sudo apt-get update >&2
		$sudo apt-get install -y --no-install-recommends nlohmann-json3-dev libstb-dev >&2
	fi
}

cmd_build() {
	if [ -x "$BIN" ] && "$BIN" --version >/dev/null 2>&1; then
		log "reusing $BIN"
		echo "$BIN"
		return 0
	fi
	need_headers
	mkdir -p "$CACHE"
	local tmp start
	tmp="$(mktemp -d "$CACHE/.build-XXXXXX")"
	# shellcheck disable=SC2064 # expand now: $tmp is local
	trap "rm -rf '$tmp'" EXIT
	start=$(date +%s)
	log "building ollama $VERSION (CPU only, cgo; ~7 min on 2 idle cores) into $BIN_DIR"
	(cd "$tmp" && GOBIN="$tmp/bin" CGO_ENABLED=1 CGO_CPPFLAGS="-I$STUB" GOFLAGS=-buildvcs=false \
		nice -n "$NICE" go install -ldflags="$LDFLAGS" "github.com/ollama/ollama@$VERSION") >&2 ||
		die "go install github.com/ollama/ollama@$VERSION failed"
	"$tmp/bin/ollama" --version >/dev/null 2>&1 || die "built binary does not run"
	rm -rf "$BIN_DIR.new" && mkdir -p "$BIN_DIR.new" && mv "$tmp/bin/ollama" "$BIN_DIR.new/ollama"
	rm -rf "$BIN_DIR" && mv "$BIN_DIR.new" "$BIN_DIR"
	log "built in $(($(date +%s) - start)) s: $BIN"
	echo "$BIN"
}

url() { echo "http://127.0.0.1:$PORT"; }

server_env() {
	export OLLAMA_HOST="127.0.0.1:$PORT" OLLAMA_MODELS="$RUN/models" HOME="$RUN/home" \
		OLLAMA_NO_CLOUD=1 GIN_MODE=release OLLAMA_KEEP_ALIVE=30m OLLAMA_NUM_PARALLEL=1 \
		OLLAMA_MAX_LOADED_MODELS=1
	unset OLLAMA_ORIGINS
}

cmd_start() {
	[ -x "$BIN" ] || die "no ollama binary at $BIN: run '$0 build' first"
	if [ -f "$RUN/ollama.pid" ] && kill -0 "$(cat "$RUN/ollama.pid")" 2>/dev/null; then
		die "a server started by this script is already running (pid $(cat "$RUN/ollama.pid"), $RUN); run '$0 stop' first"
	fi
	if curl -sf -m 2 "$(url)/api/version" >/dev/null 2>&1; then
		die "port $PORT already answers; set OLLAMA_CI_PORT to a free port"
	fi
	rm -rf "$RUN" && mkdir -p "$RUN/models" "$RUN/home"
	local t0
	t0=$(date +%s%N)
	log "generating the scripted GGUF"
	(cd "$ROOT" && go run ./cmd/tinygguf -o "$RUN/tiny.gguf" -modelfile "$RUN/Modelfile" \
		-template "$ROOT/fixtures/ollama/template.gotmpl") >&2 || die "tinygguf failed"
	(
		server_env
		cd "$RUN"
		nohup "$BIN" serve >"$RUN/serve.log" 2>&1 &
		echo $! >"$RUN/ollama.pid"
	)
	local i
	for i in $(seq 1 200); do
		if curl -sf -m 2 "$(url)/api/version" >/dev/null 2>&1; then break; fi
		kill -0 "$(cat "$RUN/ollama.pid")" 2>/dev/null || { tail -n 30 "$RUN/serve.log" >&2; die "server exited during start"; }
		sleep 0.1
	done
	curl -sf -m 2 "$(url)/api/version" >/dev/null || { tail -n 30 "$RUN/serve.log" >&2; die "server not ready after 20 s"; }
	log "server ready ($(curl -s "$(url)/api/version")), pid $(cat "$RUN/ollama.pid"), log $RUN/serve.log"
	(server_env && cd "$RUN" && "$BIN" create "$MODEL" -f "$RUN/Modelfile") >&2 2>&1 ||
		{ tail -n 30 "$RUN/serve.log" >&2; die "ollama create $MODEL failed"; }
	printf 'BFCL_OLLAMA_URL=%s\nBFCL_OLLAMA_MODEL=%s\n' "$(url)" "$MODEL" >"$RUN/env"
	log "model $MODEL created; started in $((($(date +%s%N) - t0) / 1000000)) ms"
	url
}

cmd_stop() {
	local pidf="$RUN/ollama.pid" pid i
	[ -f "$pidf" ] || { log "no server recorded in $RUN"; return 0; }
	pid="$(cat "$pidf")"
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		for i in $(seq 1 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			log "server $pid ignored SIGTERM for 10 s; sending SIGKILL"
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$pidf"
	log "stopped server $pid"
}

cmd_env() {
	[ -f "$RUN/env" ] || die "no running server recorded in $RUN"
	cat "$RUN/env"
}

case "${1:-}" in
build) cmd_build ;;
start) cmd_start ;;
stop) cmd_stop ;;
env) cmd_env ;;
*)
	echo "usage: $0 build|start|stop|env" >&2
	exit 2
	;;
esac
