#!/bin/sh
# One server node of the Redis failover study (docs/case-studies/redis.md), started by scenario.json under
# `weft run`: node 0 is the first primary, nodes 1-2 its replicas, nodes 3-5 the Sentinels. Node i listens on
# 127.0.0.(i+1), as every simulated node does. Each node keeps its files (Sentinel rewrites its configuration) in a
# fresh directory of its own, so parallel campaign runs never share one.
set -eu
id=${WEFT_NODE_ID:?"run me as a node of weft run (WEFT_NODE_ID is not set)"}
ip=127.0.0.$((id + 1))
dir=$(mktemp -d "${TMPDIR:-/tmp}/weft-redis-n$id.XXXXXX")
# REDIS_ROLE (primary, replica or sentinel) overrides the role the node id gives, for smaller clusters.
# No jemalloc background thread (`jemalloc-bg-thread no`, Sentinels too): jemalloc starts it past the shim's
# pthread_create, so it runs in real time, and the allocator figures in INFO (allocator_allocated, ...) differed
# between two live runs of one seed. Without it jemalloc purges on the allocating threads, at virtual times.
case ${REDIS_ROLE:-$id} in
  0|primary)   exec redis-server --bind "$ip" --port 6379 --save "" --appendonly no --protected-mode no --dir "$dir" \
            --repl-diskless-sync no --jemalloc-bg-thread no ;;
  1|2|replica) exec redis-server --bind "$ip" --port 6379 --save "" --appendonly no --protected-mode no --dir "$dir" \
            --replicaof 127.0.0.1 6379 --repl-diskless-sync no --jemalloc-bg-thread no ;;
  3|4|5|sentinel)
    # Each Sentinel's ID from its node id: every node of a run draws the same random numbers (docs/shim.md, "The
    # process tree"), and Sentinels with one ID ignore each other's hellos, so they would never reach quorum.
    cat > "$dir/sentinel.conf" <<CONF
port 26379
bind $ip
protected-mode no
jemalloc-bg-thread no
dir $dir
sentinel myid $(printf %040x $((id + 1)))
sentinel monitor mymaster 127.0.0.1 6379 2
sentinel down-after-milliseconds mymaster ${SENTINEL_DOWN_AFTER_MS:-2000}
sentinel failover-timeout mymaster ${SENTINEL_FAILOVER_TIMEOUT_MS:-10000}
sentinel parallel-syncs mymaster 1
CONF
    exec redis-sentinel "$dir/sentinel.conf" ;;
  *) echo "node.sh: node $id is not a server of this study (0-5)" >&2; exit 2 ;;
esac
