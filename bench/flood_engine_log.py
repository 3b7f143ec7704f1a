"""An engine log of N info lines: SRC (a recorded log) with N copies of
`info depth 1 nodes 1`, stamped like its first `go`, inserted after that
`go`. Used by bench/adversarial.sh and bench/memory.sh.

With `--stockfish`, the N lines are shaped like Stockfish's (about 300
bytes: depth, seldepth, multipv, score, nodes, nps, hashfull, tbhits,
time and a PV of 36 moves, the numbers changing from line to line), as a
real search writes them: the bulk of a real log.

Usage: python3 bench/flood_engine_log.py [--stockfish] N SRC OUT
"""
import sys

args = sys.argv[1:]
stockfish = args[:1] == ['--stockfish']
if stockfish:
    args = args[1:]
n, src, out = int(args[0]), args[1], args[2]
lines = open(src).read().split('\n')
go = next(i for i, l in enumerate(lines) if ' > go' in l)
ts = lines[go].split(' ')[0]
PV = ('g2d5 g8h7 h4f5 d7f5 h5f5 h7h8 c2d2 h8h7 f5f8 d8f8 d2c2 g7g6 d5g8 f8g8 '
      'd1d6 g8g7 d6g6 g7b2 g6h6 h7h6 c2b2 h6g6 b2c2 g6f6 h3h4 b8d8 h4h5 d8d1 '
      'g1h2 d1h1 h2g2 h1h5 c2c7 a7c6 c7d6 f6f5')
with open(out, 'w') as f:
    f.write('\n'.join(lines[:go + 1]) + '\n')
    if stockfish:
        for k in range(n):
            d = 1 + k % 40
            f.write(f'{ts} < info depth {d} seldepth {d + 12} multipv 1 score cp {k % 200 - 100} '
                    f'nodes {131377 + k} nps 484785 hashfull 27 tbhits 0 time {271 + k} pv {PV}\n')
    else:
        line = f'{ts} < info depth 1 nodes 1\n'
        for _ in range(n // 100000):
            f.write(line * 100000)
        f.write(line * (n % 100000))
    f.write('\n'.join(lines[go + 1:]))
