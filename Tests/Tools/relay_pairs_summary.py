#!/usr/bin/env python3
"""Medians of the pair ratios (second / first: parts / pieces) from relay_pairs.sh output."""
import json,sys,statistics
rows=[l.split(' ',1) for l in open(sys.argv[1]) if l.strip()]
pairs=[(json.loads(rows[i][1]),json.loads(rows[i+1][1])) for i in range(0,len(rows)-1,2)]
for key in ['deliveries_per_sec','drags_per_sec','lines_per_sec','broadcast_latency_us.p99']:
    r=[b[key]/a[key] for a,b in pairs]
    print(key, 'pieces', [a[key] for a,b in pairs], 'parts', [b[key] for a,b in pairs], 'ratios', [round(x,3) for x in r], 'median', round(statistics.median(r),3))
print('server ns/delivery pieces', [round(a['server_cpu_s']/a['total_deliveries']*1e9,1) for a,b in pairs], 'parts', [round(b['server_cpu_s']/b['total_deliveries']*1e9,1) for a,b in pairs])
print('bench cpu pieces', [a['bench_cpu_s'] for a,b in pairs], 'parts', [b['bench_cpu_s'] for a,b in pairs])
print('passed', all(a['passed'] and b['passed'] for a,b in pairs))
