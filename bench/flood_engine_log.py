"""An engine log of N info lines: SRC (a recorded log) with N copies of
`info depth 1 nodes 1`, stamped like its first `go`, inserted after that
`go`. Used by bench/adversarial.sh and bench/memory.sh.

Usage: python3 bench/flood_engine_log.py N SRC OUT
"""
import sys

n, src, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lines = open(src).read().split('\n')
go = next(i for i, l in enumerate(lines) if ' > go' in l)
ts = lines[go].split(' ')[0]
with open(out, 'w') as f:
    f.write('\n'.join(lines[:go + 1]) + '\n')
    line = f'{ts} < info depth 1 nodes 1\n'
    for _ in range(n // 100000):
        f.write(line * 100000)
    f.write(line * (n % 100000))
    f.write('\n'.join(lines[go + 1:]))
