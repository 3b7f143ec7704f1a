"""The hostile inputs of bench/adversarial.sh's case table, written into DIR.

Each input is the minimal reproduction of one case: a ruleset with a long
operator chain, a case folder whose paths leave it, a walk with a link
back to itself, a game of a million plies, and so on. The shell script
runs arbiter on each and measures it; this only writes files.

Usage: python3 bench/hostile_inputs.py REPO DIR
"""
import json
import os
import shutil
import sys

repo, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

TAGS = ('[Event "E"]\n[Site "?"]\n[Date "2019.01.01"]\n[Round "1"]\n'
        '[White "A"]\n[Black "B"]\n[Result "{r}"]\n\n')
HEAD = 'ruleset t "T" { regulation "r" }\n'


def write(name, text, mode='w'):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)
    return path


def rule(cond):
    return HEAD + 'rule r.x "x" {\n  cite "1" "q"\n  forbid on move when ' + cond + '\n}\n'


# rule language: flat chains and long lists and `if`s
write('chain-minus.rules', rule(' - '.join(['1'] * 6600) + ' < move.ply'))
for op, name in (('+', 'plus'), ('*', 'times')):
    write(f'chain-{name}.rules', rule(f' {op} '.join(['1'] * 10000) + ' < move.ply'))
for op in ('and', 'or'):
    write(f'chain-{op}.rules', rule(f' {op} '.join(['move.ply > 1'] * 10000)))
write('list-1m.rules', rule('move.ply in [' + ', '.join(['1'] * 1_000_000) + ']'))
write('if-100k.rules', rule('move.ply in [' + ', '.join(['if 1 > 0 then 1 else 0'] * 100_000) + ']'))
# chains of 2,000 `let`s and constants, each naming the one before
# (retyped at each use, these took 2^n steps), and of 5,000 variants
lets = ['let a0 on move = move.ply'] + [
    f'let a{i} on move = if a{i - 1} > 1 then a{i - 1} else a{i - 1}' for i in range(1, 2000)]
write('let-chain.rules', HEAD + '\n'.join(lets) + '\n' + rule('a1999 > 0')[len(HEAD):])
consts = ['const c0 = 1'] + [
    f'const c{i} = if c{i - 1} > 1 then c{i - 1} else c{i - 1}' for i in range(1, 2000)]
write('const-chain.rules', HEAD + '\n'.join(consts) + '\n' + rule('c1999 > move.ply')[len(HEAD):])
variants = ['const k = 1', 'variant v0 { const k = 0 }'] + [
    f'variant v{i} extends v{i - 1} {{ const k = {i} }}' for i in range(1, 5000)]
write('variant-chain.rules', HEAD + '\n'.join(variants) + '\n' + rule('move.ply > k')[len(HEAD):])

# a case folder among clean ones whose ruleset is a chain
clean = os.path.join(repo, 'samples/icga-2008/clean')
for name in ('clean-a', 'clean-b', 'chain'):
    d = os.path.join(out, 'cases', name)
    shutil.copytree(clean, d, dirs_exist_ok=True)
    shutil.copy(os.path.join(repo, 'rulesets/icga-2008.rules'), os.path.join(d, 'r.rules'))
    case = json.load(open(os.path.join(d, 'case.json')))
    case['ruleset'] = 'r.rules'
    json.dump(case, open(os.path.join(d, 'case.json'), 'w'))
shutil.copy(os.path.join(out, 'chain-minus.rules'), os.path.join(out, 'cases/chain/r.rules'))

# case folders whose paths leave the folder
secret = write('s/secret.txt', 'the first line of a secret\nand the second\n')
for name, key, value in (
        ('escape-dotdot', 'operator_logs', ['../s/secret.txt']),
        ('escape-ruleset', 'ruleset', secret),
        ('escape-game', 'game', secret)):
    d = os.path.join(out, name)
    shutil.copytree(clean, d, dirs_exist_ok=True)
    shutil.copy(os.path.join(repo, 'rulesets/icga-2008.rules'), os.path.join(d, 'r.rules'))
    case = json.load(open(os.path.join(d, 'case.json')))
    case['ruleset'] = 'r.rules'
    case[key] = value
    json.dump(case, open(os.path.join(d, 'case.json'), 'w'))

# walks: a link back to the folder, two of them, a FIFO and /dev/zero
game = open(os.path.join(repo, 'samples/kasparov-deep-junior-2003.pgn')).read()
for name in ('loop1', 'loop2', 'fifo', 'zero'):
    write(f'{name}/good.pgn', game)
os.symlink('.', os.path.join(out, 'loop1/self'))
os.symlink('.', os.path.join(out, 'loop2/a'))
os.symlink('.', os.path.join(out, 'loop2/b'))
os.mkfifo(os.path.join(out, 'fifo/stall.pgn'))
os.symlink('/dev/zero', os.path.join(out, 'zero/zero.pgn'))

# PGN: stray tokens, a million plies, NAGs, lost text, huge move numbers
write('braces.pgn', TAGS.format(r='*') + '1. e4 ' + '} ' * 500_000 + '*\n')
shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8']
plies = 1_000_000
moves = ' '.join(f'{i // 2 + 1}. {shuffle[i % 4]}' if i % 2 == 0 else shuffle[i % 4]
                 for i in range(plies))
write('million-plies.pgn', TAGS.format(r='*') + moves + ' *\n')
for n, name in ((320_000, 'nags-320k'), (2_000_000, 'nags-2m')):
    write(f'{name}.pgn', TAGS.format(r='*') + '1. e4 ' + '$1 ' * n + 'e5 *\n')
write('blank-line.pgn', TAGS.format(r='1-0') + '1. e4 e5 2. Qh5 Nc6\n\n3. Bc4 Nf6 4. Qxf7# 1-0\n')
write('tagless.pgn', TAGS.format(r='1-0') + '1. e4 e5 1-0\n\n1. d4 d5 0-1\n\n'
      + TAGS.format(r='1/2-1/2') + '1. c4 c5 1/2-1/2\n')
write('fullmove.pgn', TAGS.format(r='*') + '4294967295. e4 e5 4294967296. Nf3 *\n')
write('big-tags.pgn', ''.join(f'[T{i} "{"x" * 100}"]\n' for i in range(100_000))
      + '\n1. e4 *\n')

# the files a run must not replace, and a report that points at /dev/zero
write('overwrite/game.pgn', game)

# fake UCI engines: one that floods its output, one that hangs in its
# search, one that answers an illegal move, and a wrapper script that
# starts one without `exec` (the engine is then a grandchild) and forks a
# helper that outlives it
ENGINE = r'''#!/usr/bin/env python3
import subprocess, sys
mode = sys.argv[1]
if mode == 'fork':
    subprocess.Popen(['sleep', '1000'])
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == 'uci':
        print('id name Fake ' + mode)
        print('uciok', flush=True)
    elif cmd[0] == 'isready':
        print('readyok', flush=True)
    elif cmd[0] == 'go':
        if mode == 'flood':
            while True:
                sys.stdout.write('info depth 1 nodes 1 ' + 'x' * 1000 + '\n')
        if mode in ('hang', 'fork'):
            continue
        print('bestmove ' + ('e2e5' if mode == 'illegal' else 'e7e5'), flush=True)
    elif cmd[0] == 'quit':
        break
'''
path = write('engine.py', ENGINE)
os.chmod(path, 0o755)
wrapper = write('wrapper.sh', f'#!/bin/sh\n{path} fork\n')
os.chmod(wrapper, 0o755)
