#!/usr/bin/env python3
# What alloc-per-bind.sh prints: alloc-sites.py RECORDING.jfr ACCESS_LOG [SITES=30]
# Bytes per bind: jdk.ThreadAllocationStatistics of every thread but JFR's (last minus first) over the BIND lines of
# ACCESS_LOG (and its rotated files) within the recording's window, at the log's one-second resolution. Sites: the
# weights of jdk.ObjectAllocationSample (the first sample of each thread dropped: it carries the thread's whole past),
# grouped by the first frame of the server (io.bindfirst) and the frame it called, then by class and top frames.
import json, subprocess, sys, collections, datetime, re, glob
f = sys.argv[1]
access = sys.argv[2]
js = subprocess.run(['jfr', 'print', '--json', '--events', 'jdk.ThreadAllocationStatistics', f],
                    capture_output=True, text=True, check=True).stdout
stats = collections.defaultdict(list)
for e in json.loads(js)['recording']['events']:
    v = e['values']; t = v['thread']
    stats[(t['javaName'] if t else '?', t['javaThreadId'] if t else 0)].append((v['startTime'], v['allocated']))
times = sorted({s for l in stats.values() for s, _ in l})
first, last = times[0], times[-1]
tot = 0; per = {}
for k, l in stats.items():
    if k[0].startswith('JFR') or 'Recorder' in k[0] or k[0].startswith('Attach'):
        continue
    l.sort(); per[k] = l[-1][1] - l[0][1]; tot += per[k]
p = lambda s: datetime.datetime.strptime(s, '%d/%b/%Y:%H:%M:%S %z')
f0 = datetime.datetime.fromisoformat(first.replace('Z', '+00:00')).replace(microsecond=0)
f1 = datetime.datetime.fromisoformat(last.replace('Z', '+00:00')).replace(microsecond=0)
n = 0
rx = re.compile(r'^\[([^\]]+)\] BIND ')
for fn in glob.glob(access + '*'):
    with open(fn) as fh:
        for line in fh:
            m = rx.match(line)
            if m and f0 < p(m.group(1)) <= f1:
                n += 1
secs = (f1 - f0).total_seconds()
print(f'window {first} .. {last} ({secs:.0f} s), binds {n} ({n/secs:.0f}/s), allocated {tot/1e6:.1f} MB, bytes/bind {tot/max(n,1):.0f}')
for k, d in sorted(per.items(), key=lambda x: -x[1])[:4]:
    print(f'  thread {k[0]}: {d/1e6:.1f} MB ({d/max(n,1):.0f} B/bind)')
units = {'bytes': 1, 'byte': 1, 'kB': 1024, 'MB': 1024**2, 'GB': 1024**3}
proc = subprocess.Popen(['jfr', 'print', '--events', 'jdk.ObjectAllocationSample', '--stack-depth', '30', f],
                        stdout=subprocess.PIPE, text=True)
own = collections.Counter(); leaf = collections.Counter(); seen = set(); tw = 0
cls = w = th = None; frames = []
def done():
    global tw
    if cls is None or th is None or cls.startswith('jdk.jfr') or th.startswith('"JFR'):
        return
    if th not in seen:
        seen.add(th); return
    tw_add = w
    names = [re.sub(r'\(.*\) line: (\d+)', r':\1', x) for x in frames]
    i = next((j for j, nm in enumerate(names) if nm.startswith('io.bindfirst')), None)
    short = lambda s: '.'.join(s.split('.')[-2:])
    key = (short(names[i]) if i is not None else 'SDK/JDK: ' + ' < '.join(short(x) for x in names[:3])) + \
          ('  <- ' + short(names[i - 1]) if i else '')
    own[key] += w
    leaf[cls.split(' ')[0] + ' @ ' + ' < '.join(short(x) for x in names[:3])] += w
    tw += w
for line in proc.stdout:
    s = line.strip()
    if s.startswith('jdk.ObjectAllocationSample'):
        done(); cls = w = th = None; frames = []
    elif s.startswith('objectClass = '):
        cls = s[14:]
    elif s.startswith('weight = '):
        a, u = s[9:].split(' '); w = float(a.replace(',', '')) * units[u]
    elif s.startswith('eventThread = '):
        th = s[14:]
    elif s and not s.startswith(('startTime', 'stackTrace', ']', '}', '...')):
        frames.append(s)
done()
print(f'sampled weight {tw/1e6:.1f} MB; by the first frame of the server (est. bytes/bind = share x bytes/bind):')
for k, v in own.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 30):
    print(f'  {100*v/tw:5.1f}% {tot*v/tw/max(n,1):6.0f} B  {k}')
print('by class and the top frames:')
for k, v in leaf.most_common(15):
    print(f'  {100*v/tw:5.1f}% {tot*v/tw/max(n,1):6.0f} B  {k}')
