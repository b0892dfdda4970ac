#!/usr/bin/env python3
"""Page frame times with a 5,000-piece part held and dragged on a 100x100
(issue 28): a server with `big jigsaw 100x100`, a TCP player that joins rows
0-49 into one part (each piece laid 2 cells right of and below its own cell,
beside the ones before), then headless Chromium at 1920x1080 holding the part
by mouse and moving it, then one loose piece; the page's own frame times
(debug.drawTimes, `performance.now()` around each draw). Also prints the
compact snapshot's size with the part.

    python3 Tests/Tools/page_part_frames.py .build/release/puzzle 7391

Needs chromium, chromium-driver and Python's selenium (as the browser tests)."""
import json, os, re, socket, statistics, subprocess, sys, tempfile, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.mouse_button import MouseButton
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

binary, port = sys.argv[1], int(sys.argv[2])
rows_in_part = int(sys.argv[3]) if len(sys.argv) > 3 else 50
data = tempfile.mkdtemp()
server = subprocess.Popen([binary, 'serve', '--port', str(port), '--bind', '127.0.0.1', '--data', data, '--drag-rate', '0',
                           '--log-level', 'warn', '--room', 'big jigsaw 100x100', '--seed', '5'])
time.sleep(1.5)
s = socket.create_connection(('127.0.0.1', port))
f = s.makefile('rb')
def send(line): s.sendall((line + '\n').encode())
def reply():
    while True:
        l = f.readline().decode().rstrip('\n')
        if l.startswith(('OK', 'ERR', 'PONG')): return l
send('HELLO 2 builder'); print(reply())
send('JOIN big'); print(reply()[:60])
U = 4; bx, by = 57 * U, 11 * U
t0 = time.time()
batch = []
n = rows_in_part * 100
for p in range(n):
    r, c = divmod(p, 100)
    batch.append(f'GRAB {p}\nDRAG {p} {bx + c * U + 8} {by + r * U + 8}\nDROP {p}\n')
chunk = 50
bad = 0
for i in range(0, n, chunk):
    send(''.join(batch[i:i + chunk]).rstrip('\n'))
    for _ in range(3 * len(batch[i:i + chunk])):
        r = reply()
        if r.startswith('ERR'): bad += 1
print('laid', n, 'pieces in', round(time.time() - t0, 1), 's; errors', bad)
send('SYNC'); lines = []
while True:
    l = f.readline().decode().rstrip('\n')
    if l.startswith('OK'): break
    lines.append(l)
parts = [l for l in lines if l.startswith('S part ')]
print('parts:', [(l.split()[2], len(l)) for l in parts][:3])
size = sum(len(l) + 1 for l in lines)
print('SYNC snapshot bytes (version 2, compact):', size)

opts = webdriver.ChromeOptions()
for a in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--window-size=1920,1080', '--force-device-scale-factor=1'):
    opts.add_argument(a)
d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
d.set_window_size(1920, 1080)
d.get(f'http://127.0.0.1:{port}/#big')
box = WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, 'name'))
box.clear(); box.send_keys('looker')
d.find_element(By.CSS_SELECTOR, '#name-form button[type=submit]').click()
try:
    WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#rooms button[data-room="big"]'))
    d.find_elements(By.CSS_SELECTOR, '#rooms button[data-room="big"]')[0].click()
except Exception:
    pass
try:
    WebDriverWait(d, 60).until(lambda d: d.execute_script('return window.puzzlePage.state().inGame'))
except Exception:
    d.save_screenshot(os.path.join(tempfile.gettempdir(), 'page-part-frames-failed.png')); print(d.execute_script('return window.puzzlePage.state()')); raise
WebDriverWait(d, 30).until(lambda d: d.execute_script('return window.puzzlePage.parts().length') == 1)
time.sleep(2)
p = d.execute_script('return window.puzzlePage.piece(0)')
def frames(): return d.execute_script('return window.puzzlePage.debug.drawTimes.slice()')
# Idle frames first (nothing held), then held and dragged.
d.execute_script('window.puzzlePage.debug.drawTimes.length = 0')
ab = ActionBuilder(d, duration=16)
ab.pointer_action.move_to_location(int(p['x']), int(p['y'])); ab.pointer_action.pointer_down(MouseButton.LEFT)
ab.pointer_action.pause(0.5)
for i in range(150):
    ab.pointer_action.move_to_location(int(p['x']) + (i % 30) * 3, int(p['y']) + (i % 20) * 2)
ab.perform()
held = frames()[5:]
print('held:', d.execute_script('return window.puzzlePage.state().held.length'), 'pieces')
ab = ActionBuilder(d); ab.pointer_action.pointer_up(MouseButton.LEFT); ab.perform()
d.save_screenshot(os.path.join(tempfile.gettempdir(), 'laptop-5000-part.png'))
print('frames while dragging the part:', len(held), 'median ms', round(statistics.median(held), 2), 'p90', round(sorted(held)[int(len(held) * 0.9)], 2))
time.sleep(1)
q = d.execute_script('return window.puzzlePage.piece(9999)')
d.execute_script('window.puzzlePage.debug.drawTimes.length = 0')
ab = ActionBuilder(d, duration=16)
ab.pointer_action.move_to_location(int(q['x']), int(q['y'])); ab.pointer_action.pointer_down(MouseButton.LEFT)
ab.pointer_action.pause(0.5)
for i in range(150):
    ab.pointer_action.move_to_location(int(q['x']) - (i % 30) * 3, int(q['y']) - (i % 20) * 2)
ab.perform()
single = frames()[5:]
print('held:', d.execute_script('return window.puzzlePage.state().held.length'), 'pieces')
ab = ActionBuilder(d); ab.pointer_action.pointer_up(MouseButton.LEFT); ab.perform()
print('frames while dragging one piece:', len(single), 'median ms', round(statistics.median(single), 2), 'p90', round(sorted(single)[int(len(single) * 0.9)], 2))
d.quit(); server.kill()
