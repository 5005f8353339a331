#!/usr/bin/env bash
# Starts, checks or stops three bitcask-raft replicas on loopback, from the repository root:
#   bitcask-raft/cluster.sh start    n1..n3 on 127.0.0.1:7001..7003, health on 127.0.0.1:8081..8083
#   bitcask-raft/cluster.sh status   each replica's /ready answer
#   bitcask-raft/cluster.sh stop     stops the three (SIGTERM: each closes its stores)
# Data and logs go to data/raft/ (RAFT_DATA overrides it). Build the jar first:
#   ./mvnw -B -pl bitcask-raft -am package -DskipTests
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=bitcask-raft/target/bitcask-raft.jar
DATA=${RAFT_DATA:-data/raft}
PEERS=n1=127.0.0.1:7001,n2=127.0.0.1:7002,n3=127.0.0.1:7003

case "${1:-}" in
  start)
    [ -f "$JAR" ] || { echo "no $JAR: run ./mvnw -B -pl bitcask-raft -am package -DskipTests" >&2; exit 1; }
    mkdir -p "$DATA"
    for i in 1 2 3; do
      if [ -f "$DATA/n$i.pid" ] && kill -0 "$(cat "$DATA/n$i.pid")" 2>/dev/null; then
        echo "n$i already running (pid $(cat "$DATA/n$i.pid"))"
        continue
      fi
      nohup java -jar "$JAR" server --id "n$i" --peers "$PEERS" --dir "$DATA/n$i" \
        --http "127.0.0.1:808$i" >>"$DATA/n$i.log" 2>&1 &
      echo $! >"$DATA/n$i.pid"
      echo "n$i started (pid $!), log $DATA/n$i.log"
    done
    echo "waiting for a leader..."
    for _ in $(seq 1 120); do
      if curl -fs http://127.0.0.1:8081/ready >/dev/null 2>&1; then
        curl -s http://127.0.0.1:8081/ready
        exit 0
      fi
      sleep 0.5
    done
    echo "no leader within 60 s; see $DATA/n*.log" >&2
    exit 1
    ;;
  status)
    for i in 1 2 3; do
      printf 'n%s: ' "$i"
      curl -s --max-time 2 "http://127.0.0.1:808$i/ready" || echo "not answering"
    done
    ;;
  stop)
    for i in 1 2 3; do
      if [ -f "$DATA/n$i.pid" ]; then
        kill "$(cat "$DATA/n$i.pid")" 2>/dev/null || true
        rm -f "$DATA/n$i.pid"
        echo "n$i stopped"
      fi
    done
    ;;
  *)
    echo "usage: $0 start|status|stop" >&2
    exit 2
    ;;
esac
