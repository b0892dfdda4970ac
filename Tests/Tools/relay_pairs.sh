#!/bin/bash
# Parts against pieces on the TCP relay (issue 28), side by side: ROUNDS interleaved
# pairs, the server pinned to core 0 and the bench to core 1, one JSON summary
# line a run. Then: python3 Tests/Tools/relay_pairs_summary.py OUT.txt
#   bash Tests/Tools/relay_pairs.sh .build/release/puzzle 20x20 5 > OUT.txt
# FIRST and SECOND name the two ways of playing (default pieces, then parts);
# the relay goal's pair is the same cycles with single pieces and with parts:
#   FIRST=carry:1 SECOND=carry:8 bash Tests/Tools/relay_pairs.sh .build/release/puzzle 50x50 5 > OUT.txt
B=$1; SIZE=$2; ROUNDS=$3; shift 3
FIRST=${FIRST:-pieces}; SECOND=${SECOND:-parts}
for r in $(seq 1 $ROUNDS); do
  for mode in $FIRST $SECOND; do
    play=${mode%%:*}; carry=
    [ "$play" != "$mode" ] && carry="--carry ${mode#*:}" 
    D=$(mktemp -d)
    taskset -c 0 $B serve --port 0 --bind 127.0.0.1 --data $D --drag-rate 0 --log-level warn --max-connections 12000 --max-per-address 0 --idle-timeout 0 --config /dev/null > $D/log 2>&1 &
    PID=$!
    for i in $(seq 1 50); do PORT=$(grep -oE '127\.0\.0\.1:[0-9]+' $D/log | head -1 | cut -d: -f2); [ -n "$PORT" ] && break; sleep 0.1; done
    taskset -c 1 $B bench --server 127.0.0.1:$PORT --server-pid $PID --json --duration 5 --warmup 2 --bots 100 --size $SIZE --play $play $carry "$@" > $D/out.json 2>$D/err
    python3 - "$mode" "$D/out.json" <<'PY'
import json,sys
mode,f=sys.argv[1],sys.argv[2]
try: j=json.load(open(f))
except Exception as e: print(mode,"ERR",open(f).read()[:300]); sys.exit()
def find(d,keys,prefix=''):
    out={}
    for k,v in d.items():
        if isinstance(v,dict): out.update(find(v,keys,prefix+k+'.'))
        elif any(x in k.lower() for x in keys): out[prefix+k]=v
    return out
print(mode, json.dumps(find(j,['deliver','drags','p99','cpu','passed','lines','check'])))
PY
    kill $PID; wait $PID 2>/dev/null; rm -rf $D
  done
done
